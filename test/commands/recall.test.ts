/**
 * The read side from the outside: `aizk recall` (text and --json, bad input exit 2),
 * `aizk graph entity`, `aizk graph --kind/--page` with its scope column, and the MCP server's
 * recall tool reading only under the scope set `aizk mcp --scope` names. The real CLI, spawned;
 * scoped reads on a login that is neither owner nor superuser (AIZK_APP_DATABASE_URL).
 */
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { closeExtractionPool } from '../../src/graph/extract/extract-pool.js'
import { A, B, fileAppLogin } from '../support/app-login.js'
import { binPath, cleanEnv, repoRoot, runCli } from '../support/cli.js'
import { cliEnv } from '../support/commands/env.js'
import { fileDatabase } from '../support/db.js'
import { addDocument, projectAs } from '../support/graph/graph.js'

const db = await fileDatabase()
const login = await fileAppLogin(db)
let env: Record<string, string>

async function ingest(scopes: string[], title: string, body: string) {
  for (const id of await addDocument(login.scoped, scopes, title, body)) await projectAs(login.scoped, id, scopes)
}

before(async () => {
  env = cliEnv(db.url, { AIZK_APP_DATABASE_URL: login.url })
  await ingest([A], 'Debian history', 'Ian Murdock founded Debian in 1993. Debian is a free operating system. Bruce Perens led Debian after Ian Murdock.')
  await ingest([B], 'Zebra history', 'Ian Murdock founded Zebra Linux in 1997. Zebra Linux is a commercial operating system.')
})
db.beforeDrop(async () => {
  await closeExtractionPool()
})

describe('aizk recall', () => {
  it('prints the answering claim with its document, and the same as JSON', async () => {
    const text = await runCli(['recall', 'Who founded Debian?', '--scope', A], { env })
    assert.equal(text.code, 0, text.stderr)
    assert.match(text.stdout, /^recall "Who founded Debian\?" in \{aaaaaaaa-[^}]+\}: \d+ items/m)
    assert.match(text.stdout, /claim +Ian Murdock —found→ Debian/)
    assert.match(text.stdout, /from Debian history, characters \d+-\d+ \(chunk [0-9a-f-]{36}\)/)
    assert.ok(!text.stdout.includes('Zebra'), "{B}'s text never reaches a reader of {A}")
    const json = await runCli(['recall', 'Who founded Debian?', '--scope', A, '--json', '--limit', '5'], { env })
    assert.equal(json.code, 0, json.stderr)
    const doc = JSON.parse(json.stdout)
    assert.ok(doc.items.length > 0 && doc.items.length <= 5)
    const claim = doc.claims.find((c: { subject: string; object: string }) => c.subject === 'Ian Murdock' && c.object === 'Debian')
    assert.equal(claim.sources[0].title, 'Debian history')
    assert.ok(doc.items.every((i: { scopes: string[] }) => i.scopes.join() === A))
  })

  it('answers nothing, exit 0, when only another set holds the answer; --floor 0 shows what ranks', async () => {
    const text = await runCli(['recall', 'Who founded Zebra Linux?', '--scope', A], { env })
    assert.equal(text.code, 0, text.stderr)
    assert.match(
      text.stdout,
      /: 0 items\n\(nothing in this scope set supports an answer: confidence 0\.\d\d, below the floor of 0\.\d\d; the best item held \d\.\d\d of the question's weight/,
    )
    const json = JSON.parse((await runCli(['recall', 'Who founded Zebra Linux?', '--scope', A, '--json'], { env })).stdout)
    assert.equal(json.abstained, true)
    assert.deepEqual([json.items, json.claims, json.chunks], [[], [], []])
    assert.ok(json.confidence < json.floor, `confidence ${json.confidence} under floor ${json.floor}`)
    const anyway = JSON.parse((await runCli(['recall', 'Who founded Zebra Linux?', '--scope', A, '--json', '--floor', '0'], { env })).stdout)
    assert.equal(anyway.abstained, false)
    assert.ok(anyway.items.length > 0, "{A}'s own items rank when the floor is off")
    const own = JSON.parse((await runCli(['recall', 'Who founded Zebra Linux?', '--scope', B, '--json'], { env })).stdout)
    assert.equal(own.abstained, false, 'the set that holds the answer gives it')
    assert.ok(own.items[0].support >= own.floor)
  })

  it('bad input is exit 2 with what was wrong', async () => {
    const cases: [string[], RegExp][] = [
      [['recall', '   ', '--scope', A], /the question is empty/],
      [['recall', 'Who?', '--scope', 'not-a-uuid'], /not a uuid: "not-a-uuid"/],
      [['recall', 'Who?'], /Missing required flag scope/],
      [['recall', 'Who?', '--scope', A, '--as-of', 'yesterday-ish'], /--as-of "yesterday-ish" is not a date/],
      [['recall', 'Who?', '--scope', A, '--floor', '1.5'], /--floor "1.5" is not a number from 0 to 1/],
      [['recall', 'Who?', '--scope', A, '--floor', 'high'], /--floor "high" is not a number from 0 to 1/],
    ]
    for (const [args, message] of cases) {
      const res = await runCli(args, { env })
      assert.equal(res.code, 2, `${args.join(' ')}: ${res.stderr}`)
      assert.match(res.stderr, message)
    }
  })
})

describe('aizk graph entity and paging', () => {
  it("shows one entity's claims, neighbours and mentions with sources; unknown names are exit 5 with suggestions", async () => {
    const page = await runCli(['graph', 'entity', 'ian murdock', '--scope', A, '--json'], { env })
    assert.equal(page.code, 0, page.stderr)
    const doc = JSON.parse(page.stdout)
    assert.equal(doc.entity.name, 'Ian Murdock')
    assert.deepEqual(doc.entity.scopes, [A])
    assert.ok(
      doc.claimsOut.some((c: { predicate: string; object: string }) => c.object === 'Debian'),
      'the founding claim, out',
    )
    assert.ok(doc.claimsOut.every((c: { sources: { title: string }[] }) => c.sources.length > 0))
    assert.ok(doc.neighbours.some((n: { name: string }) => n.name === 'Debian'))
    assert.ok(doc.mentions.length > 0 && doc.mentions.every((m: { title: string }) => m.title === 'Debian history'))
    assert.ok(!JSON.stringify(doc).includes('Zebra'), "{B}'s Ian Murdock is not {A}'s")
    const text = await runCli(['graph', 'entity', 'Ian Murdock', '--scope', A], { env })
    assert.match(text.stdout, /^Ian Murdock \(person\)/m)
    assert.match(text.stdout, /MENTIONED IN/)
    const missing = await runCli(['graph', 'entity', 'Ian Murdok', '--scope', A], { env })
    assert.equal(missing.code, 5, missing.stderr)
    assert.match(missing.stderr, /no entity "Ian Murdok"/)
    assert.match(missing.stderr, /did you mean "Ian Murdock"/)
  })

  it('aizk graph pages, filters by kind and shows a scope column when several sets are read', async () => {
    const all = JSON.parse((await runCli(['graph', '--scope', A, '--scope', B, '--json', '--limit', '500'], { env })).stdout)
    const first = JSON.parse((await runCli(['graph', '--scope', A, '--scope', B, '--json', '--limit', '2'], { env })).stdout)
    const second = JSON.parse((await runCli(['graph', '--scope', A, '--scope', B, '--json', '--limit', '2', '--page', '2'], { env })).stdout)
    assert.deepEqual(
      [...first.entities, ...second.entities].map((e: { id: string }) => e.id),
      all.entities.slice(0, 4).map((e: { id: string }) => e.id),
    )
    const people = JSON.parse((await runCli(['graph', '--scope', A, '--scope', B, '--json', '--kind', 'person'], { env })).stdout)
    assert.ok(people.entities.length > 0 && people.entities.every((e: { kind: string }) => e.kind === 'person'))
    const text = await runCli(['graph', '--scope', A, '--scope', B], { env })
    assert.match(text.stdout, /SCOPE/)
    assert.ok(text.stdout.includes(A) && text.stdout.includes(B))
    assert.doesNotMatch((await runCli(['graph', '--scope', A], { env })).stdout, /SCOPE/)
  })
})

describe('aizk mcp recall', () => {
  async function connect(args: string[]): Promise<Client> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [binPath, 'mcp', ...args],
      env: cleanEnv(env) as Record<string, string>,
      cwd: repoRoot,
      stderr: 'pipe',
    })
    const client = new Client({ name: 'aizk-test', version: '1.0.0' })
    await client.connect(transport)
    return client
  }

  it('reads only under the scope set the server was started with; without one there is no recall tool', async () => {
    const plain = await connect([])
    try {
      assert.ok(!(await plain.listTools()).tools.some((t) => t.name === 'recall'))
    } finally {
      await plain.close()
    }
    const client = await connect(['--scope', A])
    try {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'recall')
      assert.ok(tool, 'recall is offered')
      assert.deepEqual(
        Object.keys((tool.inputSchema as { properties: object }).properties).sort(),
        ['asOf', 'knownAt', 'limit', 'question'],
        'no scope argument to widen',
      )
      for (const question of ['Who founded Debian?', 'Who founded Zebra Linux?']) {
        const res = await client.callTool({ name: 'recall', arguments: { question } })
        assert.notEqual(res.isError, true)
        const text = (res.content as { text: string }[])[0].text
        const doc = JSON.parse(text)
        assert.deepEqual(doc.scopes, [A])
        assert.ok(doc.items.every((i: { scopes: string[] }) => i.scopes.join() === A))
        assert.ok(!JSON.stringify({ ...doc, query: '' }).includes('Zebra'), `${question}: nothing of {B}`)
        if (question.includes('Debian')) assert.ok(doc.claims.some((c: { object: string }) => c.object === 'Debian'))
      }
      const bad = await client.callTool({ name: 'recall', arguments: { question: '' } })
      assert.equal(bad.isError, true)
    } finally {
      await client.close()
    }
  })
})
