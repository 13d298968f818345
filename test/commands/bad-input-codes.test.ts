/**
 * The last bad inputs that exited with the wrong code: the dashboard's --port out of range, a port
 * in use, an address this machine does not have or a --host that is no address at all; ages past
 * 100 years; a wait longer than a timer can hold; a NUL in a recall question or in a text file to
 * ingest. Each exits with its documented code (README "Exit codes"), names what was wrong and
 * writes nothing.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { before, describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { UsageError } from '../../src/errors.js'
import { recall } from '../../src/graph/read/recall.js'
import { convertArtifact, ingestOriginal } from '../../src/ingest/index.js'
import { durationSeconds } from '../../src/mcp/duration-arg.js'
import { isPermanentError } from '../../src/permanent-error.js'
import { waitForJobs } from '../../src/queue/wait-for-jobs.js'
import { parseSettings } from '../../src/settings.js'
import { binPath, cleanEnv, repoRoot, runCli } from '../support/cli.js'
import { cliEnv } from '../support/commands/env.js'
import { insertHeld, insertQueued } from '../support/commands/queue-rows.js'
import { fileDatabase } from '../support/db.js'
import { freePort } from '../support/worker-process.js'

const SCOPE = 'aaaaaaaa-0000-4000-8000-000000000001'
const TOKEN = 'a-token-of-32-characters-at-least'
const db = await fileDatabase()
let env: Record<string, string>

before(async () => {
  env = cliEnv(db.url)
})

function assertExit(res: { code: number; stderr: string }, code: number, message: RegExp): void {
  assert.equal(res.code, code, res.stderr)
  assert.match(res.stderr, /^error: /m)
  assert.match(res.stderr, message)
  assert.doesNotMatch(
    res.stderr,
    /\s+at\s+\S+:\d+|Warning|cannot reach PostgreSQL|invalid byte sequence/,
    'no stack trace, no Node warning, no blame on the database',
  )
}

async function written(): Promise<{ jobs: number; artifacts: number; content: number }> {
  const { rows } = await db.pool.query(
    'select (select count(*) from pgqueuer)::int as jobs, (select count(*) from artifact)::int as artifacts, (select count(*) from aizk_content)::int as content',
  )
  return rows[0]
}

describe('aizk dashboard: where it listens', () => {
  it('--port beyond 65535 is exit 2, as --port -1 is', async () => {
    for (const port of ['99999', '-1']) {
      const res = await runCli(['dashboard', '--port', port], { env })
      assertExit(res, 2, new RegExp(`--port must be a whole number from 0 to 65535, got ${port}`))
    }
  })

  it('a port another program holds is exit 6 (a conflict), naming the port', async () => {
    const holder = net.createServer()
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', () => resolve()))
    try {
      const port = (holder.address() as net.AddressInfo).port
      const res = await runCli(['dashboard', '--port', String(port)], { env })
      assertExit(res, 6, new RegExp(`dashboard port ${port} on 127\\.0\\.0\\.1 is in use`))
      assert.match(res.stderr, /^hint: pick another --port/m)
    } finally {
      await new Promise((resolve) => holder.close(resolve))
    }
  })

  it('an address this machine does not have is exit 2 naming --host', async () => {
    const res = await runCli(['dashboard', '--host', '203.0.113.5', '--port', '0'], { env: { ...env, AIZK_DASHBOARD_TOKEN: TOKEN } })
    assertExit(res, 2, /--host 203\.0\.113\.5 cannot be listened on: it is not an address of this machine \(EADDRNOTAVAIL\)/)
  })

  it('a --host that is no address at all is exit 2 before the database is asked (here: none answers)', async () => {
    const nobody = `postgres://postgres@127.0.0.1:${await freePort()}/none`
    for (const host of ['not a host!', '-x', 'a..b', `${'a'.repeat(64)}.example`]) {
      const res = await runCli(['dashboard', '--host', host, '--port', '0'], { env: { ...env, AIZK_DATABASE_URL: nobody, AIZK_DASHBOARD_TOKEN: TOKEN } })
      assertExit(res, 2, /--host ".*" is not an IP address or a host name/)
    }
  })
})

describe('durations past what the database or a timer can hold', () => {
  it('jobs, requeue, cancel and discard --older-than 99999999999d: exit 2 naming the flag and the maximum, nothing changed', async () => {
    await insertHeld(db.pool, 'cli_strict', 1)
    await insertQueued(db.pool, 'cli_strict', 1)
    for (const command of [['jobs'], ['requeue', '--yes'], ['cancel', '--yes'], ['discard', '--yes']]) {
      const res = await runCli([...command, '--older-than', '99999999999d'], { env })
      assertExit(res, 2, /--older-than "99999999999d" is longer than 36500 days \(100 years\)/)
      assert.match(res.stderr, /^hint: use a duration of at most 36500d/m)
    }
    const { rows } = await db.pool.query<{ status: string; n: number }>('select status::text, count(*)::int as n from pgqueuer group by 1 order by 1')
    assert.deepEqual(rows, [
      { status: 'failed', n: 1 },
      { status: 'queued', n: 1 },
    ])
    // The largest age taken still reads.
    const ok = await runCli(['jobs', '--older-than', '36500d', '--json'], { env })
    assert.equal(ok.code, 0, ok.stderr)
    assert.deepEqual(
      JSON.parse(ok.stdout).jobs.map((j: { id: string }) => j.id),
      [],
    )
    await db.pool.query('truncate pgqueuer')
  })

  it("the MCP tools' look-back windows and thresholds past 100 years are usage errors too", () => {
    for (const text of ['99999999999d', 'P99999999D']) {
      assert.throws(
        () => durationSeconds(text, 'period'),
        (err: unknown) => err instanceof UsageError && new RegExp(`period "${text}" is longer than 36500 days`).test(err.message),
      )
    }
    assert.equal(durationSeconds('36500d', 'period'), 36_500 * 86_400)
  })

  it('enqueue --wait --timeout 30d: exit 2 naming the flag and the timer limit, before anything is enqueued', async () => {
    const res = await runCli(['enqueue', 'cli_strict', '--payload', '{"name":"a","count":1}', '--wait', '--timeout', '30d'], { env })
    assertExit(res, 2, /--timeout "30d" is longer than a timer can wait: at most 2147483 seconds \(about 24\.8 days\)/)
    assert.equal((await written()).jobs, 0)
  })

  it('waitForJobs refuses a timeout a timer cannot hold instead of giving up at once', async () => {
    await insertQueued(db.pool, 'cli_strict', 1)
    const { rows } = await db.pool.query<{ id: string }>('select id::text from pgqueuer')
    await assert.rejects(waitForJobs(db.pool, [rows[0].id], { timeoutMs: 30 * 86_400_000, listen: false }), (err: unknown) => {
      assert.ok(err instanceof UsageError)
      assert.match(err.message, /timeoutMs 2592000000 is out of range: from 0 to 2147483000/)
      return true
    })
    // The longest one taken waits: an abort, not the timer, ends it.
    const stop = new AbortController()
    setTimeout(() => stop.abort(), 300)
    const [outcome] = await waitForJobs(db.pool, [rows[0].id], { timeoutMs: 2_147_483_000, listen: false, signal: stop.signal })
    assert.deepEqual(outcome, { id: rows[0].id, status: 'timeout', lastSeen: 'queued' })
    await db.pool.query('truncate pgqueuer')
  })
})

describe('NUL at the door', () => {
  it('ingest of a text file holding NUL: exit 2 naming the file and the byte, nothing stored; a PDF may hold NUL', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'aizk-nul-'))
    try {
      for (const name of ['notes.txt', 'notes.md', 'page.html']) {
        const file = path.join(dir, name)
        writeFileSync(file, Buffer.from('first line\nsecond\u0000line\n'))
        const res = await runCli(['ingest', file, '--scope', SCOPE], { env })
        assertExit(res, 2, new RegExp(`${name.replace('.', '\\.')} holds a NUL byte \\(at byte 17\\), which text \\(text/\\w+\\) cannot`))
      }
      const utf16 = path.join(dir, 'wide.txt')
      writeFileSync(utf16, Buffer.from('\ufeffhello', 'utf16le'))
      const wide = await runCli(['ingest', utf16, '--scope', SCOPE], { env })
      assertExit(wide, 2, /wide\.txt holds a NUL byte/)
      assert.match(wide.stderr, /iconv -f UTF-16 -t UTF-8/)
      assert.deepEqual(await written(), { jobs: 0, artifacts: 0, content: 0 })

      const pdf = path.join(dir, 'scan.pdf')
      writeFileSync(pdf, Buffer.from('%PDF-1.4\n\u0000\u0001binary'))
      const ok = await runCli(['ingest', pdf, '--scope', SCOPE, '--json'], { env })
      assert.equal(ok.code, 0, ok.stderr)
      assert.equal(JSON.parse(ok.stdout).mediaType, 'application/pdf')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('an older text artifact holding NUL fails its conversion at once (held, not retried), with nothing written', async () => {
    const settings = parseSettings({})
    const r = await ingestOriginal(db.pool, settings, {
      bytes: Buffer.from('old\u0000text'),
      filename: 'old.bin',
      mediaType: 'application/pdf',
      scopes: [SCOPE],
    })
    // As ingested before NUL was refused at the door.
    await db.pool.query("update artifact set media_type = 'text/plain', filename = 'old.txt' where id = $1", [r.artifactId])
    await assert.rejects(convertArtifact(db.pool, settings, { artifactId: r.artifactId, scopes: [SCOPE] }), (err: unknown) => {
      assert.ok(isPermanentError(err), 'held at once, never retried')
      assert.match((err as Error).message, /the Markdown of artifact [0-9a-f-]{36} holds a NUL character/)
      return true
    })
    const { rows } = await db.pool.query(
      'select conversion_status, markdown, (select count(*)::int from chunk where artifact_id = $1) as chunks from artifact where id = $1',
      [r.artifactId],
    )
    assert.deepEqual(rows[0], { conversion_status: 'failed', markdown: null, chunks: 0 })
    await db.pool.query('truncate pgqueuer')
    await db.pool.query('delete from artifact')
  })

  it('recall: a question with NUL is a usage error (the MCP tool and the library), never PostgreSQL\'s "invalid byte sequence"', async () => {
    await assert.rejects(recall(db.pool, { readScopes: [SCOPE], query: 'who\u0000founded Debian?' }), (err: unknown) => {
      assert.ok(err instanceof UsageError)
      assert.equal(err.message, 'the question holds a NUL character (at character 4)')
      return true
    })
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [binPath, 'mcp', '--scope', SCOPE],
      env: cleanEnv(env) as Record<string, string>,
      cwd: repoRoot,
      stderr: 'pipe',
    })
    const client = new Client({ name: 'aizk-test', version: '1.0.0' })
    await client.connect(transport)
    try {
      const res = await client.callTool({ name: 'recall', arguments: { question: 'who\u0000founded Debian?' } })
      assert.equal(res.isError, true)
      const text = (res.content as { text: string }[])[0].text
      assert.match(text, /^error \(usage\): the question holds a NUL character \(at character 4\)/)
      assert.doesNotMatch(text, /invalid byte sequence/)
      const fine = await client.callTool({ name: 'recall', arguments: { question: 'who founded Debian?' } })
      assert.notEqual(fine.isError, true, (fine.content as { text: string }[])[0].text)
    } finally {
      await client.close()
    }
  })
})
