import assert from 'node:assert/strict'
import { before, beforeEach, describe, it } from 'node:test'
import pg from 'pg'
import { setDurability } from '../../src/queue/durability.js'
import { createAppLogin } from '../support/app-login.js'
import { runCli } from '../support/cli.js'
import { cliEnv } from '../support/commands/env.js'
import { insertLog, insertQueued } from '../support/commands/queue-rows.js'
import { fileDatabase } from '../support/db.js'
import { waitFor } from '../support/wait-for.js'
import { spawnWorker } from '../support/worker-process.js'

const db = await fileDatabase()
let env: Record<string, string>

before(async () => {
  env = cliEnv(db.url)
})
beforeEach(async () => {
  await db.pool.query('ALTER TABLE pgqueuer_log SET LOGGED')
  await db.pool.query('ALTER TABLE pgqueuer_statistics SET LOGGED')
  await db.pool.query('TRUNCATE pgqueuer, pgqueuer_log')
})

async function persistence(): Promise<Record<string, string>> {
  const { rows } = await db.pool.query<{ relname: string; relpersistence: string }>(
    "SELECT relname, relpersistence FROM pg_class WHERE relname IN ('pgqueuer', 'pgqueuer_log', 'pgqueuer_statistics', 'pgqueuer_schedules') AND relkind = 'r'",
  )
  return Object.fromEntries(rows.map((r) => [r.relname, r.relpersistence]))
}

const DURABLE = { pgqueuer: 'p', pgqueuer_log: 'p', pgqueuer_statistics: 'p', pgqueuer_schedules: 'p' }
const BALANCED = { pgqueuer: 'p', pgqueuer_log: 'u', pgqueuer_statistics: 'u', pgqueuer_schedules: 'p' }

describe('aizk durability', () => {
  it('shows the level and each table, as text and as JSON', async () => {
    const text = await runCli(['durability'], { env })
    assert.equal(text.code, 0, text.stderr)
    assert.match(text.stdout, /^durability: durable$/m)
    assert.match(text.stdout, /^ {2}pgqueuer_log +LOGGED /m)
    const json = await runCli(['durability', '--json'], { env })
    const doc = JSON.parse(json.stdout)
    assert.equal(doc.level, 'durable')
    assert.deepEqual(
      doc.tables.map((t: { table: string }) => t.table),
      ['pgqueuer', 'pgqueuer_log', 'pgqueuer_statistics', 'pgqueuer_schedules'],
    )
  })

  it('asks before a switch: without a terminal it needs --yes and changes nothing', async () => {
    const res = await runCli(['durability', 'balanced'], { env })
    assert.equal(res.code, 2, res.stderr)
    assert.match(res.stderr, /rewrites pgqueuer_log \(.*\), pgqueuer_statistics \(.*\) under an ACCESS EXCLUSIVE lock/)
    assert.match(res.stderr, /pass --yes/)
    assert.deepEqual(await persistence(), DURABLE)
  })

  it('--dry-run prints the statements and changes nothing', async () => {
    const res = await runCli(['durability', 'balanced', '--dry-run'], { env })
    assert.equal(res.code, 0, res.stderr)
    assert.equal(res.stdout.trim(), 'ALTER TABLE pgqueuer_log SET UNLOGGED;\nALTER TABLE pgqueuer_statistics SET UNLOGGED;')
    assert.deepEqual(await persistence(), DURABLE)
  })

  it('switches to balanced and back, keeping every row, and says when there is nothing to do', async () => {
    await insertLog(db.pool, 500, 1)
    await insertQueued(db.pool, 'cli_noop', 40)
    const res = await runCli(['durability', 'balanced', '--yes'], { env })
    assert.equal(res.code, 0, res.stderr)
    assert.match(res.stdout, /^durability durable -> balanced in [\d.]+s \(2 table\(s\) rewritten\)$/m)
    assert.deepEqual(await persistence(), BALANCED)
    const status = await runCli(['status', '--once'], { env })
    assert.match(status.stdout, /^LOG pgqueuer_log \(unlogged: a server crash empties it\): /m, 'status says the history is not crash-safe')
    const again = await runCli(['durability', 'balanced', '--yes'], { env })
    assert.match(again.stdout, /the queue is already balanced: nothing to do/)
    // The unlogged log still takes the rows of finished jobs.
    await insertLog(db.pool, 5, 0)
    const back = await runCli(['durability', 'durable', '--yes', '--json'], { env })
    assert.equal(back.code, 0, back.stderr)
    const doc = JSON.parse(back.stdout)
    assert.deepEqual(
      [doc.from, doc.level, doc.statements],
      ['balanced', 'durable', ['ALTER TABLE pgqueuer_log SET LOGGED', 'ALTER TABLE pgqueuer_statistics SET LOGGED']],
    )
    assert.deepEqual(await persistence(), DURABLE)
    assert.equal(JSON.parse((await runCli(['status', '--json'], { env })).stdout).log.unlogged, false)
    const { rows } = await db.pool.query('SELECT (SELECT count(*)::int FROM pgqueuer_log) AS log, (SELECT count(*)::int FROM pgqueuer) AS queue')
    assert.deepEqual(rows[0], { log: 505, queue: 40 })
  })

  it('switches both ways under a running worker fed jobs: every job runs once and is logged once', async () => {
    const worker = spawnWorker(env, ['--entrypoint', 'cli_noop', '--no-scheduler'])
    const logged = async () => (await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM pgqueuer_log')).rows[0].n
    let fed = 0
    let feeding = true
    const feed = (async () => {
      while (feeding) {
        await db.pool.query(`INSERT INTO pgqueuer (priority, entrypoint, status) SELECT 0, 'cli_noop', 'queued' FROM generate_series(1, 100)`)
        fed += 100
        await new Promise((r) => setTimeout(r, 10))
      }
    })()
    try {
      try {
        await waitFor('the worker to start completing jobs', async () => (await logged()) > 0, { detail: worker.stderr })
        for (const level of ['balanced', 'durable']) {
          const before = await logged()
          const res = await runCli(['durability', level, '--yes', '--lock-timeout', '30'], { env })
          assert.equal(res.code, 0, res.stderr)
          await waitFor(`jobs completing after the switch to ${level}`, async () => (await logged()) > before + 500, { detail: worker.stderr })
        }
      } finally {
        feeding = false
        await feed
      }
      const drained = async () => (await db.pool.query('SELECT count(*)::int AS n FROM pgqueuer')).rows[0].n === 0
      await waitFor('the worker to drain the queue', drained, { timeoutMs: 120_000, detail: worker.stderr })
    } finally {
      assert.equal(await worker.stop(), 0, worker.stderr())
    }
    const { rows } = await db.pool.query<{ jobs: number; rows: number }>(
      "SELECT count(DISTINCT job_id)::int AS jobs, count(*)::int AS rows FROM pgqueuer_log WHERE status = 'successful'",
    )
    assert.deepEqual(rows[0], { jobs: fed, rows: fed })
    assert.deepEqual(await persistence(), DURABLE)
  })

  it('gives up after --lock-timeout with exit 6 and changes no table, not even the ones it could lock', async () => {
    // pgqueuer_log is switched first; a session holding pgqueuer_statistics makes the second
    // statement wait, so the first must be rolled back.
    const holder = new pg.Client({ connectionString: db.url })
    await holder.connect()
    try {
      await holder.query('BEGIN')
      await holder.query('LOCK TABLE pgqueuer_statistics IN ROW EXCLUSIVE MODE')
      const started = Date.now()
      const res = await runCli(['durability', 'balanced', '--yes', '--lock-timeout', '1'], { env })
      assert.equal(res.code, 6, res.stderr)
      assert.match(res.stderr, /could not lock the queue tables for the switch: another session holds them; nothing was changed/)
      assert.match(res.stderr, /--lock-timeout/)
      assert.ok(Date.now() - started < 20_000)
      assert.deepEqual(await persistence(), DURABLE)
    } finally {
      await holder.query('ROLLBACK')
      await holder.end()
    }
  })

  describe('bad input: exit 2, nothing changed', () => {
    const cases: [string, string[], RegExp][] = [
      ['volatile', ['durability', 'volatile', '--yes'], /aizk does not set the volatile level: it makes the pgqueuer table itself unlogged/],
      ['an unknown level', ['durability', 'fast', '--yes'], /"fast" is not a durability level[\s\S]*use one of: durable, balanced/],
      ['a negative lock timeout', ['durability', 'balanced', '--yes', '--lock-timeout=-1'], /--lock-timeout/],
    ]
    for (const [name, args, re] of cases) {
      it(name, async () => {
        const res = await runCli(args, { env })
        assert.equal(res.code, 2, res.stderr)
        assert.match(res.stderr, re)
        assert.deepEqual(await persistence(), DURABLE)
      })
    }
  })

  it('the app role cannot switch: it does not own the tables', async () => {
    const login = await createAppLogin(db)
    try {
      await assert.rejects(
        setDurability(login.pool, 'balanced', { lockTimeoutMs: 1000 }),
        /the switch needs the owner of the queue tables: must be owner of table pgqueuer_log; nothing was changed/,
      )
      assert.deepEqual(await persistence(), DURABLE)
    } finally {
      await login.drop()
    }
  })
})
