/**
 * The local queue with real worker processes: a pick takes a whole batch at concurrency 1, so
 * every job after the first waits in the worker. Those waiting jobs are `picked` rows of the
 * worker: its heartbeat keeps another worker off them, SIGTERM releases them to `queued`
 * without counting an attempt, and after SIGKILL the stale-pick path recovers them. Every job
 * ends with exactly one successful log row.
 */
import assert from 'node:assert/strict'
import { afterEach, before, beforeEach, describe, it } from 'node:test'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { fileDatabase } from '../support/db.js'
import { waitFor } from '../support/wait-for.js'
import { isEvent, spawnWorker, type WorkerProcess, workerEnv } from '../support/worker-process.js'

const db = await fileDatabase()
const workers: WorkerProcess[] = []

before(async () => {
  await db.pool.query(
    'create table test_runs (id bigserial primary key, job_id bigint, entrypoint text, attempts int, pid int, note text, at timestamptz default now())',
  )
})
beforeEach(async () => {
  await db.pool.query('truncate pgqueuer, pgqueuer_log, test_runs, aizk_worker')
})
afterEach(async () => {
  for (const w of workers.splice(0)) await w.kill()
})

/** One handler at a time, a batch of 8: the first job runs, the others wait in the local queue. */
const oneAtATime = (extra: Record<string, string> = {}) =>
  workerEnv(db.url, {
    AIZK_QUEUE_BATCH_SIZE: '8',
    AIZK_QUEUE_CONCURRENT_TASKS: '1',
    AIZK_WORKER_ENTRYPOINTS: 'test_sleep,test_slow_first,test_record',
    AIZK_HEARTBEAT_TIMEOUT_SECONDS: '2',
    ...extra,
  })

function start(env: Record<string, string>): WorkerProcess {
  const w = spawnWorker(env)
  workers.push(w)
  return w
}

async function assertOneSuccessEach(ids: string[]): Promise<void> {
  // A handler's end is not yet its completion: completions ride on the next pick or a flush
  // (docs/job-lifecycle.md#the-local-queue), so wait until every row has left the queue.
  await waitFor('every job completed in the database', async () => (await db.pool.query('select count(*)::int as n from pgqueuer')).rows[0].n === 0, 30_000)
  const log = await db.pool.query<{ job_id: string; status: string; n: number }>(
    'select job_id::text, status::text, count(*)::int as n from pgqueuer_log group by 1, 2',
  )
  assert.deepEqual(
    log.rows.filter((r) => r.status !== 'successful' || r.n !== 1),
    [],
    'each job logged once, as successful',
  )
  assert.deepEqual(new Set(log.rows.map((r) => r.job_id)), new Set(ids), 'no job lost')
  const left = await db.pool.query('select count(*)::int as n from pgqueuer')
  assert.equal(left.rows[0].n, 0)
}

/** How many times each job's handler started, by job id. */
async function runsByJob(): Promise<Map<string, { n: number; pids: number[]; attempts: number[] }>> {
  const { rows } = await db.pool.query<{ job_id: string; n: number; pids: number[]; attempts: number[] }>(
    'select job_id::text, count(*)::int as n, array_agg(pid) as pids, array_agg(attempts) as attempts from test_runs group by 1',
  )
  return new Map(rows.map((r) => [r.job_id, r]))
}

describe('aizk worker end to end: the local queue', () => {
  it('keeps jobs waiting locally past the heartbeat timeout: another worker does not take them', async () => {
    // The first job runs 5 s (the timeout is 2 s); the other four wait behind it in worker A.
    const ids = (await enqueueMany(db.pool, [
      { entrypoint: 'test_sleep', priority: 10, payload: { ms: 5000 } },
      ...Array.from({ length: 4 }, (_, i) => ({ entrypoint: 'test_record', payload: { tag: `waiting ${i}` } })),
    ])) as string[]
    const a = start(oneAtATime())
    await a.waitForCount(isEvent('job:picked'), ids.length, 'worker A picking all five in one batch')
    const b = start(oneAtATime())
    await b.waitFor(isEvent('worker:started'), 'worker B started')
    await a.waitForCount(isEvent('job:completed'), ids.length, 'worker A finishing all five', 60_000)

    const runs = await runsByJob()
    const aPid = a.child.pid as number
    assert.deepEqual(
      ids.map((id) => runs.get(id)?.pids),
      ids.map(() => [aPid]),
      'each job ran once, in worker A',
    )
    assert.deepEqual(
      b.events.filter((e) => e.event === 'job:picked' || e.event === 'job:recovered'),
      [],
      'worker B took nothing',
    )
    // The precondition: the waiting jobs did wait longer than the heartbeat timeout.
    const picked = await db.pool.query<{ waited: number }>(
      "select min(extract(epoch from (r.at - s.at)))::float8 as waited from test_runs r, test_runs s where r.entrypoint = 'test_record' and s.entrypoint = 'test_sleep'",
    )
    assert.ok(picked.rows[0].waited > 2, `the waiting jobs started ${picked.rows[0].waited} s after the first, past the 2 s heartbeat timeout`)
    await assertOneSuccessEach(ids)
    assert.equal(await a.stop(), 0)
    assert.equal(await b.stop(), 0)
  })

  it('SIGTERM releases the waiting jobs to queued without counting an attempt; the next worker runs each once', async () => {
    const ids = (await enqueueMany(db.pool, [
      { entrypoint: 'test_sleep', priority: 10, payload: { ms: 1500 } },
      ...Array.from({ length: 6 }, (_, i) => ({ entrypoint: 'test_record', payload: { tag: `waiting ${i}` } })),
    ])) as string[]
    const a = start(oneAtATime({ AIZK_SHUTDOWN_TIMEOUT_SECONDS: '20' }))
    await a.waitForCount(isEvent('job:picked'), ids.length, 'worker A picking all seven')
    a.child.kill('SIGTERM')
    const { code } = await a.exited
    assert.equal(code, 0, a.stderr())

    const released = a.events.filter(isEvent('job:released')).map((e) => e.jobId as string)
    assert.deepEqual(new Set(released), new Set(ids.slice(1)), 'the six waiting jobs were released')
    assert.equal(a.events.find(isEvent('job:completed'))?.jobId, ids[0], 'the running job finished inside the drain')
    const left = await db.pool.query<{ id: string; status: string; attempts: number; queue_manager_id: string | null }>(
      'select id::text, status::text, attempts, queue_manager_id from pgqueuer order by pgqueuer.id',
    )
    assert.deepEqual(
      left.rows.map((r) => [r.id, r.status, r.attempts, r.queue_manager_id]),
      ids.slice(1).map((id) => [id, 'queued', 0, null]),
    )

    const b = start(oneAtATime())
    await b.waitForCount(isEvent('job:completed'), ids.length - 1, 'worker B running the released jobs')
    assert.equal(await b.stop(), 0)
    const runs = await runsByJob()
    assert.deepEqual(
      ids.map((id) => runs.get(id)?.n),
      ids.map(() => 1),
      'each handler started once',
    )
    assert.deepEqual(
      ids.slice(1).map((id) => runs.get(id)?.pids),
      ids.slice(1).map(() => [b.child.pid]),
    )
    assert.deepEqual(
      ids.slice(1).map((id) => runs.get(id)?.attempts),
      ids.slice(1).map(() => [0]),
      'no attempt counted',
    )
    await assertOneSuccessEach(ids)
  })

  it('SIGKILL leaves the waiting jobs picked; another worker recovers them after the heartbeat timeout and runs each once', async () => {
    // The first job hangs on its first attempt, so the kill lands with it running and six waiting.
    const ids = (await enqueueMany(db.pool, [
      { entrypoint: 'test_slow_first', priority: 10, payload: {} },
      ...Array.from({ length: 6 }, (_, i) => ({ entrypoint: 'test_record', payload: { tag: `waiting ${i}` } })),
    ])) as string[]
    const a = start(oneAtATime())
    await a.waitForCount(isEvent('job:picked'), ids.length, 'worker A picking all seven')
    await a.kill('SIGKILL')
    const held = await db.pool.query<{ n: number }>("select count(*)::int as n from pgqueuer where status = 'picked'")
    assert.equal(held.rows[0].n, ids.length, 'all seven stay picked by the dead worker')
    const waitingRan = await db.pool.query<{ n: number }>("select count(*)::int as n from test_runs where entrypoint = 'test_record'")
    assert.equal(waitingRan.rows[0].n, 0, 'the waiting jobs never started in worker A')

    const b = start(oneAtATime({ AIZK_QUEUE_CONCURRENT_TASKS: '8' }))
    await b.waitForCount(isEvent('job:completed'), ids.length, 'worker B recovering and running all seven', 60_000)
    assert.equal(await b.stop(), 0)
    assert.deepEqual(new Set(b.events.filter(isEvent('job:recovered')).map((e) => e.jobId)), new Set(ids), 'taken by the stale-pick path')
    const runs = await runsByJob()
    assert.deepEqual(
      ids.slice(1).map((id) => runs.get(id)?.pids),
      ids.slice(1).map(() => [b.child.pid]),
      'each waiting job ran once, in worker B',
    )
    await assertOneSuccessEach(ids)
  })
})
