/**
 * Holds both ways, requeue waking a waiting PgQueuer worker, and prune of PgQueuer's log:
 *  - a job PgQueuer holds (on_failure="hold") shows in `aizk status` as held;
 *  - `aizk requeue` wakes a PgQueuer worker that waits for a NOTIFY (its poll is 10 minutes);
 *  - a job aizk holds carries a traceback PgQueuer parses as its own TracebackRecord;
 *  - `aizk prune` deletes PgQueuer's log rows past the retention and PgQueuer reads on.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { enqueue } from '../../src/queue/enqueue.js'
import { runCli } from '../helpers/cli.js'
import type { TestDatabase } from '../helpers/db.js'
import { killAll, type SpawnedWorker } from '../worker/spawn-worker.js'
import { idsOf, pgqEnqueue, pgqOne, type PgqWorker, requirePgQueuer, startPgqWorker } from './support/pgqueuer.js'
import { eventually, pgqueuerDatabase, startAizkWorker } from './support/scenario.js'

const dbs: TestDatabase[] = []
const aizkWorkers: SpawnedWorker[] = []
const pgqWorkers: PgqWorker[] = []
before(() => requirePgQueuer())
after(async () => {
  await killAll(aizkWorkers)
  await Promise.all(pgqWorkers.map((w) => w.stop('SIGKILL')))
  for (const db of dbs) await db.drop()
})
async function scenario() {
  const db = await pgqueuerDatabase()
  dbs.push(db)
  return db
}
const cli = (db: TestDatabase, args: string[]) => runCli(args, { env: { AIZK_DATABASE_URL: db.url } })

// The suite runs real processes one scenario after another: more than the 300 s default.
describe('holds, requeue and prune across PgQueuer and aizk', { timeout: 20 * 60_000 }, () => {
  it('PgQueuer holds a job; aizk status shows it; aizk requeue wakes the waiting PgQueuer worker', async () => {
    const db = await scenario()
    const [id] = idsOf(await pgqEnqueue(db.url, 'py_flaky', [{ json: { n: 1 } }])) as string[]
    const failing = startPgqWorker(db.url, ['py_flaky'], { fail: true, hold: true })
    pgqWorkers.push(failing)
    await failing.waitFor((e) => e.event === 'fail' && String(e.id) === id, 'the failure')
    await eventually('PgQueuer to hold the job', async () => (await db.pool.query('select status from pgqueuer where id = $1', [id])).rows[0]?.status === 'failed')
    await failing.stop()

    const status = await cli(db, ['status', '--json'])
    assert.equal(status.code, 0, status.stderr)
    const stats = JSON.parse(status.stdout)
    assert.equal(stats.entrypoints.find((e: { entrypoint: string }) => e.entrypoint === 'py_flaky')?.held, 1)
    assert.equal(stats.held.jobs[0].id, id)
    assert.match(String(stats.held.jobs[0].lastError), /failed on purpose/)

    // This worker polls only every 10 minutes: only the requeue's NOTIFY can wake it in time.
    const waiting = startPgqWorker(db.url, ['py_flaky'], { poll: 600 })
    pgqWorkers.push(waiting)
    await waiting.queueManagerId
    // Its first dequeue found nothing: its last statement, before it waits, is the queued-work probe.
    await eventually('PgQueuer to wait for a notification', async () => {
      const { rows } = await db.pool.query(
        "select 1 from pg_stat_activity where datname = current_database() and state = 'idle' and query like '%AS queued_work%'",
      )
      return rows.length > 0
    })
    const requeued = await cli(db, ['requeue', '--entrypoint', 'py_flaky', '--yes', '--json'])
    assert.equal(requeued.code, 0, requeued.stderr)
    const ended = await waiting.waitFor((e) => e.event === 'end' && String(e.id) === id, 'the requeued run', 120_000)
    assert.equal(String(ended.id), id)
  })

  it("aizk holds a job; PgQueuer parses the traceback as its own record and sees it in list_failed_jobs' status", async () => {
    const db = await scenario()
    const id = (await enqueue(db.pool, { entrypoint: 'interop_hold', payload: { x: 1 } })) as string
    const w = startAizkWorker(db, ['interop_hold'])
    aizkWorkers.push(w)
    await w.waitFor((e) => e.event === 'job:held' && e.jobId === id, 'the hold')
    await eventually('the hold to be written', async () => (await db.pool.query('select status from pgqueuer where id = $1', [id])).rows[0]?.status === 'failed')
    const log = await pgqOne(db.url, ['log', id])
    const failed = (log.rows as { status: string; traceback: Record<string, unknown> | null }[]).find((r) => r.status === 'failed')
    assert.ok(failed, 'PgQueuer reads a failed log row for the job')
    assert.equal(failed.traceback?.exception_type, 'RangeError')
    assert.match(String(failed.traceback?.exception_message), new RegExp(`interop hold of job ${id}`))
    const statuses = await pgqOne(db.url, ['job-status', id])
    assert.deepEqual(statuses.statuses, { [id]: 'failed' })
  })

  it("aizk prune deletes PgQueuer's log rows past the retention; PgQueuer reads the rest", async () => {
    const db = await scenario()
    const ids = idsOf(await pgqEnqueue(db.url, 'py_done', [1, 2, 3].map((n) => ({ json: { n } })))) as string[]
    const w = startPgqWorker(db.url, ['py_done'])
    pgqWorkers.push(w)
    for (const id of ids) await w.waitFor((e) => e.event === 'end' && String(e.id) === id, `PgQueuer end of ${id}`)
    await eventually('PgQueuer to log the completions', async () => {
      const { rows } = await db.pool.query("select count(*)::int as n from pgqueuer_log where status = 'successful'")
      return rows[0].n === 3
    })
    await w.stop()
    const before = (await db.pool.query('select count(*)::int as n from pgqueuer_log')).rows[0].n
    assert.equal(before, 9, "PgQueuer logs queued, picked and successful for each job")
    // Age the first job's rows past a one-day retention.
    await db.pool.query("update pgqueuer_log set created = now() - interval '2 days' where job_id = $1", [ids[0]])
    const pruned = await cli(db, ['prune', '--retention-days', '1', '--json'])
    assert.equal(pruned.code, 0, pruned.stderr)
    assert.equal(JSON.parse(pruned.stdout).deleted, 3)
    const left = await pgqOne(db.url, ['job-status', ...ids])
    assert.deepEqual(left.statuses, { [ids[1]]: 'successful', [ids[2]]: 'successful' })
  })
})
