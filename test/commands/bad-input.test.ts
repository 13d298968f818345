/**
 * Bad input: each case exits 2 with one clear `error:` line (no stack trace, no Node warning)
 * and writes nothing; a setting out of its range (and the heartbeat pair that let a worker re-pick
 * its own jobs) is refused with exit 3 naming the variable; a taken health port is exit 6 and
 * leaves no worker registered.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { before, describe, it } from 'node:test'
import { runCli } from '../support/cli.js'
import { cliEnv } from '../support/commands/env.js'
import { insertHeld, insertLog, insertQueued } from '../support/commands/queue-rows.js'
import { fileDatabase } from '../support/db.js'

const SCOPE = 'aaaaaaaa-0000-4000-8000-000000000001'
const db = await fileDatabase()
let env: Record<string, string>

before(async () => {
  env = cliEnv(db.url)
})

async function written(): Promise<{ jobs: number; artifacts: number; content: number }> {
  const { rows } = await db.pool.query(
    'select (select count(*) from pgqueuer)::int as jobs, (select count(*) from artifact)::int as artifacts, (select count(*) from aizk_content)::int as content',
  )
  return rows[0]
}

function assertUsage(res: { code: number; stderr: string }, message: RegExp): void {
  assert.equal(res.code, 2, res.stderr)
  assert.match(res.stderr, /^error: /m)
  assert.match(res.stderr, message)
  assert.doesNotMatch(res.stderr, /\s+at\s+\S+:\d+|DeprecationWarning|›/, 'no stack trace, warning or oclif banner')
}

describe('bad input exits 2 and writes nothing', () => {
  it('an --execute-after past the year 9999', async () => {
    const res = await runCli(['enqueue', 'cli_strict', '--payload', '{"name":"a","count":1}', '--execute-after', '99999999999d'], { env })
    assertUsage(res, /--execute-after "99999999999d" is too far ahead/)
    assert.equal((await written()).jobs, 0)
  })

  it('a dedupe key too long for the index', async () => {
    const key = 'k'.repeat(8000)
    const res = await runCli(['enqueue', 'cli_strict', '--payload', '{"name":"a","count":1}', '--dedupe-key', key], { env })
    assertUsage(res, /--dedupe-key is 8000 bytes; at most 2048/)
    assert.equal((await written()).jobs, 0)
  })

  it('a file that cannot be read (/proc/self/mem)', async () => {
    const res = await runCli(['ingest', '/proc/self/mem', '--scope', SCOPE], { env })
    assertUsage(res, /cannot read \/proc\/self\/mem: EIO/)
    assert.deepEqual(await written(), { jobs: 0, artifacts: 0, content: 0 })
  })

  it('a media type that is not one', async () => {
    const res = await runCli(['ingest', 'package.json', '--scope', SCOPE, '--media-type', 'x;;;'], { env })
    assertUsage(res, /media type "x;;;" is not a media type/)
    assert.deepEqual(await written(), { jobs: 0, artifacts: 0, content: 0 })
  })

  it('a flag that does not parse keeps its reason', async () => {
    const res = await runCli(['enqueue', 'cli_strict', '--priority', 'abc'], { env })
    assertUsage(res, /^error: Parsing --priority: Expected an integer but received: abc$/m)
  })

  it('an unknown command uses the same error line, with a suggestion', async () => {
    const res = await runCli(['enqeue'], { env })
    assertUsage(res, /^error: unknown command "enqeue"$/m)
    assert.match(res.stderr, /^hint: did you mean `aizk enqueue`/m)
    const json = await runCli(['nosuch', '--json'], { env })
    assert.equal(json.code, 2)
    assert.equal(JSON.parse(json.stdout).error.message, 'unknown command "nosuch"')
  })
})

describe('the heartbeat pair is checked together', () => {
  it('an interval not well below the timeout: exit 3 naming both settings', async () => {
    const res = await runCli(['worker'], { env: { ...env, AIZK_HEARTBEAT_INTERVAL_SECONDS: '60', AIZK_HEARTBEAT_TIMEOUT_SECONDS: '5' } })
    assert.equal(res.code, 3, res.stderr)
    assert.match(res.stderr, /AIZK_HEARTBEAT_INTERVAL_SECONDS \(60\) and AIZK_HEARTBEAT_TIMEOUT_SECONDS \(5\)/)
    const flag = await runCli(['worker', '--heartbeat-timeout', '10'], { env })
    assert.equal(flag.code, 3, flag.stderr)
    assert.match(flag.stderr, /AIZK_HEARTBEAT_INTERVAL_SECONDS \(5\) and --heartbeat-timeout/)
  })
})

describe('more bad input', () => {
  it('prune --retention-days past 100 years: exit 2, not a database error, nothing deleted', async () => {
    await insertLog(db.pool, 3, 30)
    const res = await runCli(['prune', '--retention-days', '99999999999999'], { env })
    assertUsage(res, /--retention-days must be a number of days from 0 to 36500, got "99999999999999"/)
    const { rows } = await db.pool.query('select count(*)::int as n from pgqueuer_log')
    assert.equal(rows[0].n, 3)
    await db.pool.query('truncate pgqueuer_log')
  })

  it('worker --entrypoint "" is not "every job": exit 2, no worker registered', async () => {
    for (const value of ['', ' , ']) {
      const res = await runCli(['worker', '--entrypoint', value, '--no-scheduler'], { env, timeoutMs: 30_000 })
      assertUsage(res, /--entrypoint ".*" names an empty entrypoint/)
    }
    const { rows } = await db.pool.query('select count(*)::int as n from aizk_worker')
    assert.equal(rows[0].n, 0)
  })

  it('worker --health-port that another program holds: exit 6, and no aizk_worker row left behind', async () => {
    const holder = net.createServer()
    await new Promise<void>((resolve) => holder.listen(0, '0.0.0.0', () => resolve()))
    try {
      const port = (holder.address() as net.AddressInfo).port
      const res = await runCli(['worker', '--health-port', String(port), '--no-scheduler'], { env, timeoutMs: 30_000 })
      assert.equal(res.code, 6, res.stderr)
      assert.match(res.stderr, new RegExp(`health port ${port} is in use`))
      const { rows } = await db.pool.query('select count(*)::int as n from aizk_worker')
      assert.equal(rows[0].n, 0, 'deregistered on the way out')
    } finally {
      await new Promise((resolve) => holder.close(resolve))
    }
  })

  it('ingest refuses what is not a regular file (a device, a named pipe) and a file over AIZK_INGEST_MAX_BYTES, before reading it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'aizk-ingest-'))
    try {
      const fifo = path.join(dir, 'pipe')
      execFileSync('mkfifo', [fifo])
      const zero = await runCli(['ingest', '/dev/zero', '--scope', SCOPE], { env, timeoutMs: 20_000 })
      assertUsage(zero, /\/dev\/zero is a character device, not a regular file/)
      const pipe = await runCli(['ingest', fifo, '--scope', SCOPE], { env, timeoutMs: 20_000 })
      assertUsage(pipe, /pipe is a named pipe, not a regular file/)
      const big = await runCli(['ingest', 'package.json', '--scope', SCOPE], { env: { ...env, AIZK_INGEST_MAX_BYTES: '100' } })
      assertUsage(big, /package\.json is [\d,]+ bytes, over the ingest limit of 100 bytes \(AIZK_INGEST_MAX_BYTES\)/)
      // A file whose size the system does not report is read up to the limit, then refused.
      const proc = await runCli(['ingest', '/proc/self/maps', '--scope', SCOPE], { env: { ...env, AIZK_INGEST_MAX_BYTES: '100' } })
      assertUsage(proc, /\/proc\/self\/maps is larger than that, over the ingest limit of 100 bytes/)
      assert.deepEqual(await written(), { jobs: 0, artifacts: 0, content: 0 })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("requeue, discard and cancel -e of an unknown entrypoint: exit 2 with suggestions; an entrypoint with jobs in the queue (a PgQueuer worker's) is taken", async () => {
    for (const command of ['requeue', 'discard', 'cancel']) {
      const res = await runCli([command, '-e', 'cli_strcit', '--dry-run'], { env })
      assertUsage(res, /unknown entrypoint "cli_strcit"/)
      assert.match(res.stderr, /did you mean "cli_strict"/)
      const json = await runCli([command, '-e', 'nosuch_entrypoint', '--dry-run', '--json'], { env })
      assert.equal(json.code, 2, json.stderr)
      assert.deepEqual(JSON.parse(json.stdout).error.details, { entrypoint: 'nosuch_entrypoint', suggestions: [] })
    }
    // Registered nowhere here, but in the table: a PgQueuer worker's entrypoint.
    await insertHeld(db.pool, 'python_only_job', 1)
    await insertQueued(db.pool, 'python_only_job', 1)
    const requeue = await runCli(['requeue', '-e', 'python_only_job', '--dry-run', '--json'], { env })
    assert.equal(requeue.code, 0, requeue.stderr)
    assert.equal(JSON.parse(requeue.stdout).matching, 1)
    const cancel = await runCli(['cancel', '-e', 'python_only_job', '--dry-run', '--json'], { env })
    assert.equal(cancel.code, 0, cancel.stderr)
    assert.equal(JSON.parse(cancel.stdout).matching.queued, 1)
    await db.pool.query('truncate pgqueuer')
  })
})

describe('settings out of their range exit 3', () => {
  it('each names the variable and the range', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ AIZK_DECAY_FLOOR: '2' }, /AIZK_DECAY_FLOOR: expected a number between 0 and 1, got "2"/],
      [{ AIZK_DEDUP_SIMILARITY: '1.5' }, /AIZK_DEDUP_SIMILARITY: expected a number between 0 and 1/],
      [{ AIZK_CLEANUP_LOG_RETENTION_DAYS: '99999999999999' }, /AIZK_CLEANUP_LOG_RETENTION_DAYS: expected a number between 0 and 36500/],
      [{ AIZK_JOB_TIMEOUT_SECONDS: '99999999' }, /AIZK_JOB_TIMEOUT_SECONDS: expected a number between 0 and 2147483/],
      [{ AIZK_BACKUP_KEEP: '99999999999' }, /AIZK_BACKUP_KEEP: expected a whole number at most 2147483647, got 99999999999/],
      [{ AIZK_INGEST_MAX_BYTES: '2000000000' }, /AIZK_INGEST_MAX_BYTES: expected a whole number between 1 and 1073741823/],
      [{ AIZK_QUEUE_PICKS_IN_FLIGHT: '3' }, /AIZK_QUEUE_PICKS_IN_FLIGHT: expected a whole number between 1 and 2, got 3/],
    ]
    for (const [vars, message] of cases) {
      const res = await runCli(['settings'], { env: { ...env, ...vars } })
      assert.equal(res.code, 3, `${JSON.stringify(vars)}: ${res.stderr}`)
      assert.match(res.stderr, message)
    }
  })

  it('AIZK_DATA_DIR naming a file: exit 3 with the reason, and no Node warning', async () => {
    for (const dir of ['/proc/self/mem', '/proc/self/mem/sub']) {
      const res = await runCli(['server', 'status'], { env: { AIZK_DATA_DIR: dir } })
      assert.equal(res.code, 3, res.stderr)
      assert.match(res.stderr, /AIZK_DATA_DIR: expected a folder, but (part of )?\/proc\/self\/mem/)
      assert.doesNotMatch(res.stderr, /\(node:\d+\)|Warning|ENOTDIR/)
    }
  })
})
