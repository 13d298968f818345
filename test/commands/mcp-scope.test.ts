/**
 * `aizk mcp --scope A`: the queue tools show payloads and dedupe keys of A's jobs only (jobs of
 * the set or its subsets, as their payloads' `scopes` say); B's jobs, and jobs naming no set,
 * keep their rows but show neither. Without --scope the server is an operator's and shows all.
 */
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { enqueue } from '../../src/queue/enqueue.js'
import { A, B, fileAppLogin } from '../support/app-login.js'
import { binPath, cleanEnv, repoRoot } from '../support/cli.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase()
const login = await fileAppLogin(db)
const clients: Client[] = []
const jobs: Record<'a' | 'b' | 'none', string> = { a: '', b: '', none: '' }

before(async () => {
  const job = async (payload: unknown, dedupeKey: string) => String(await enqueue(db.pool, { entrypoint: 'aizk_usage_event', priority: 0, dedupeKey, payload }))
  jobs.a = await job({ scopes: [A], note: 'a-payload-visible' }, 'a-key-visible')
  jobs.b = await job({ scopes: [B], note: 'b-payload-secret' }, 'b-key-secret')
  jobs.none = await job({ note: 'unscoped-payload-secret' }, 'unscoped-key-secret')
})
db.beforeDrop(async () => {
  for (const c of clients) await c.close().catch(() => {})
})

async function connect(args: string[]): Promise<Client> {
  const env = cleanEnv({ AIZK_DATABASE_URL: db.url, AIZK_APP_DATABASE_URL: login.url }) as Record<string, string>
  const transport = new StdioClientTransport({ command: process.execPath, args: [binPath, 'mcp', ...args], env, cwd: repoRoot, stderr: 'pipe' })
  const client = new Client({ name: 'aizk-test', version: '1.0.0' })
  await client.connect(transport)
  clients.push(client)
  return client
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const res = await client.callTool({ name, arguments: args })
  const text = (res.content as { text: string }[])[0].text
  assert.notEqual(res.isError, true, `${name}: ${text}`)
  return text
}

describe('aizk mcp --scope and the queue tools', () => {
  it("with --scope A, B's and unscoped payloads and dedupe keys are withheld; A's are shown", async () => {
    const client = await connect(['--scope', A])
    const table = await call(client, 'queue_table_info')
    assert.match(table, /a-payload-visible/)
    assert.match(table, /a-key-visible/)
    assert.doesNotMatch(table, /secret/)
    const rows = JSON.parse(table) as { id: string; withheld?: string }[]
    assert.deepEqual(
      rows
        .filter((r) => r.withheld)
        .map((r) => r.id)
        .sort(),
      [jobs.b, jobs.none].sort(),
    )
    for (const id of [jobs.b, jobs.none]) {
      const story = await call(client, 'job_story', { id })
      assert.doesNotMatch(story, /secret/, `job ${id}`)
      assert.match(story, /withheld/)
    }
    assert.match(await call(client, 'job_story', { id: jobs.a }), /a-payload-visible/)
  })

  it('without --scope every payload is shown, as aizk jobs show shows it', async () => {
    const client = await connect([])
    const table = await call(client, 'queue_table_info')
    for (const text of ['a-payload-visible', 'b-payload-secret', 'unscoped-payload-secret', 'b-key-secret']) assert.match(table, new RegExp(text))
  })
})
