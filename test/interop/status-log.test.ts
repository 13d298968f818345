/**
 * What aizk reads from PgQueuer's rows, and what PgQueuer reads from aizk's:
 *  - throughput counts finished jobs only, though PgQueuer also logs `queued` and `picked`;
 *  - `aizk status` lists a PgQueuer worker as foreign, never reads its slow heartbeat as a
 *    stale pick, and judges only aizk's own schedules unless --include-foreign-schedules;
 *  - with AIZK_QUEUE_LOG_PARITY aizk writes `queued` and `picked` rows, so PgQueuer's
 *    job_status and duration percentiles see aizk's jobs; without it a requeued job reads
 *    `failed` to PgQueuer until it is picked (the documented default).
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { runCli } from '../helpers/cli.js'
import type { TestDatabase } from '../helpers/db.js'
import { killAll, type SpawnedWorker } from '../worker/spawn-worker.js'
import { idsOf, pgq, pgqEnqueue, pgqOne, type PgqWorker, requirePgQueuer, startPgqWorker } from './support/pgqueuer.js'
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
const cli = (db: TestDatabase, args: string[], env: Record<string, string> = {}) => runCli(args, { env: { AIZK_DATABASE_URL: db.url, ...env } })
const statusJson = async (db: TestDatabase, env: Record<string, string> = {}) => {
  const res = await cli(db, ['status', '--json'], env)
  assert.equal(res.code, 0, res.stderr)
  return JSON.parse(res.stdout)
}

// The suite runs real processes one scenario after another: more than the 300 s default.
describe("aizk status and PgQueuer's log", { timeout: 20 * 60_000 }, () => {
  it('throughput counts 20 held and 10 finished PgQueuer jobs as 30, not one per log row', async () => {
    const db = await scenario()
    const held = idsOf(await pgqEnqueue(db.url, 'py_held', Array.from({ length: 20 }, (_, n) => ({ json: { n } })))) as string[]
    const done = idsOf(await pgqEnqueue(db.url, 'py_ok', Array.from({ length: 10 }, (_, n) => ({ json: { n } })))) as string[]
    const failing = startPgqWorker(db.url, ['py_held'], { fail: true, hold: true, batchSize: 20 })
    const ok = startPgqWorker(db.url, ['py_ok'], { batchSize: 10 })
    pgqWorkers.push(failing, ok)
    await eventually('PgQueuer to finish all 30', async () => {
      const { rows } = await db.pool.query("select count(*)::int as n from pgqueuer_log where status in ('failed', 'successful') and job_id = any($1::bigint[])", [[...held, ...done]])
      return rows[0].n === 30
    }, 90_000)
    const logRows = (await db.pool.query('select count(*)::int as n from pgqueuer_log')).rows[0].n
    assert.equal(logRows, 90, 'PgQueuer wrote queued, picked and a final row for each job')
    const stats = await statusJson(db)
    assert.equal(stats.throughput.lastMinute, 30)
    assert.equal(stats.throughput.failedLastMinute, 20)
  })

  it('lists a PgQueuer worker as foreign, without a stale pick; only aizk schedules are judged', async () => {
    const db = await scenario()
    const py = startPgqWorker(db.url, ['py_long'], { sleep: 30, heartbeatTimeout: 10 })
    pgqWorkers.push(py)
    const qm = await py.queueManagerId
    const [id] = idsOf(await pgqEnqueue(db.url, 'py_long', [{ json: {} }])) as string[]
    await py.waitFor((e) => e.event === 'start' && String(e.id) === id, 'the PgQueuer start')
    await eventually('the pick heartbeat to be older than 1 s', async () => {
      const { rows } = await db.pool.query("select 1 from pgqueuer where id = $1 and heartbeat < now() - interval '1 second'", [id])
      return rows.length > 0
    })
    const env = { AIZK_HEARTBEAT_TIMEOUT_SECONDS: '1' }
    const stats = await statusJson(db, env)
    assert.deepEqual(stats.workers.foreign.map((w: { queueManagerId: string; entrypoints: string[]; picked: number }) => [w.queueManagerId, w.entrypoints, w.picked]), [[qm, ['py_long'], 1]])
    assert.equal(stats.stalePicks.count, 0, "a PgQueuer pick is judged by the foreign timeout, not aizk's")

    // PgQueuer's own scheduler registers its tick; then no PgQueuer scheduler runs for an hour.
    await pgq(db.url, ['schedule', 'pgq_tick', '* * * * *'])
    await db.pool.query("update pgqueuer_schedules set created = now() - interval '1 hour', last_run = now() - interval '1 hour', next_run = now() - interval '59 minutes' where entrypoint = 'pgq_tick'")
    const withSchedule = await statusJson(db, env)
    const tick = withSchedule.schedules.find((s: { entrypoint: string }) => s.entrypoint === 'pgq_tick')
    assert.deepEqual([tick.foreign, tick.overdue], [true, true])
    const check = await cli(db, ['status', '--check'], env)
    assert.equal(check.code, 0, check.stderr)
    const strict = await cli(db, ['status', '--check', '--include-foreign-schedules'], env)
    assert.equal(strict.code, 7)
    assert.match(strict.stderr, /schedule pgq_tick/)
  })

  it("with AIZK_QUEUE_LOG_PARITY PgQueuer's job_status and percentiles see aizk's jobs", async () => {
    const db = await scenario()
    const ids = (await enqueueMany(db.pool, [1, 2, 3].map((n) => ({ entrypoint: 'interop_json', payload: { n } })), { logQueued: true })) as string[]
    const queued = await pgqOne(db.url, ['job-status', ...ids])
    assert.deepEqual(queued.statuses, Object.fromEntries(ids.map((id) => [id, 'queued'])))
    const w = startAizkWorker(db, ['interop_json'], { AIZK_QUEUE_LOG_PARITY: 'true' })
    aizkWorkers.push(w)
    await eventually('the completions to be written', async () => {
      const { rows } = await db.pool.query("select count(*)::int as n from pgqueuer_log where status = 'successful' and job_id = any($1::bigint[])", [ids])
      return rows[0].n === 3
    })
    const finished = await pgqOne(db.url, ['job-status', ...ids])
    assert.deepEqual(finished.statuses, Object.fromEntries(ids.map((id) => [id, 'successful'])))
    const percentiles = await pgqOne(db.url, ['percentiles'])
    assert.deepEqual(percentiles.rows, [{ entrypoint: 'interop_json', completed: 3 }])
  })

  it('a requeued held job reads failed to PgQueuer by default, queued with parity', async () => {
    const db = await scenario()
    const ids = (await enqueueMany(db.pool, [1, 2].map((n) => ({ entrypoint: 'interop_hold', payload: { n }, dedupeKey: `h${n}` })))) as string[]
    const w = startAizkWorker(db, ['interop_hold'])
    aizkWorkers.push(w)
    for (const id of ids) await w.waitFor((e) => e.event === 'job:held' && e.jobId === id, `the hold of ${id}`)
    w.kill('SIGTERM')
    await w.exited
    const [plain, parity] = ids
    assert.equal((await cli(db, ['requeue', '--id', plain, '--yes'])).code, 0)
    assert.equal((await cli(db, ['requeue', '--id', parity, '--yes'], { AIZK_QUEUE_LOG_PARITY: 'true' })).code, 0)
    const statuses = await pgqOne(db.url, ['job-status', ...ids])
    assert.deepEqual(statuses.statuses, { [plain]: 'failed', [parity]: 'queued' })
  })
})
