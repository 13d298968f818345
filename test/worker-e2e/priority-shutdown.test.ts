import assert from 'node:assert/strict'
import { afterEach, before, describe, it } from 'node:test'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { fileDatabase } from '../support/db.js'
import { isEvent, spawnWorker, type WorkerProcess, workerEnv } from '../support/worker-process.js'

const db = await fileDatabase()
let worker: WorkerProcess | undefined

before(async () => {
  await db.pool.query(
    `create table test_runs (id bigserial primary key, job_id bigint, entrypoint text, attempts int, pid int, note text, at timestamptz default now())`,
  )
})
afterEach(async () => {
  await worker?.kill()
  worker = undefined
})

describe('aizk worker end to end: order and shutdown', () => {
  it('runs jobs of every priority in priority order, oldest first within one, and logs JSON lines', async () => {
    const priorities = [-5, 0, 10, 50, 75, 100]
    const items = Array.from({ length: 60 }, (_, i) => ({ entrypoint: 'test_noop', priority: priorities[(i * 7) % priorities.length], payload: { i } }))
    const ids = (await enqueueMany(db.pool, items)) as (string | false)[]
    const expected = ids
      .map((id, i) => ({ id: String(id), priority: items[i].priority }))
      .sort((a, b) => b.priority - a.priority || Number(BigInt(a.id) - BigInt(b.id)))
      .map((j) => j.id)

    // One job at a time, all 60 in one pick: the order handlers start in is the order the queue
    // hands them out (two picks in flight at once may return in either order).
    worker = spawnWorker(workerEnv(db.url, { AIZK_QUEUE_BATCH_SIZE: '64', AIZK_QUEUE_CONCURRENT_TASKS: '1', AIZK_WORKER_ENTRYPOINTS: 'test_noop' }))
    await worker.waitForCount(isEvent('job:completed', 'test_noop'), 60, '60 completions')
    worker.child.kill('SIGTERM')
    const { code } = await worker.exited
    assert.equal(code, 0, worker.stderr())

    const picked = worker.events.filter(isEvent('job:picked', 'test_noop'))
    assert.deepEqual(
      worker.events.filter(isEvent('job:completed', 'test_noop')).map((e) => e.jobId),
      expected,
    )
    assert.deepEqual(
      [...new Set(picked.map((e) => e.priority))].sort((a, b) => (b as number) - (a as number)),
      [100, 75, 50, 10, 0, -5],
    )
    // The non-terminal output: every line a JSON object with ts and event, no escape codes.
    assert.deepEqual(worker.badLines, [])
    assert.ok(!worker.rawStdout().includes('\u001b'))
    assert.ok(worker.events.every((e) => !Number.isNaN(Date.parse(e.ts))))
    assert.equal(worker.events[0].event, 'worker:started')
    assert.equal(worker.events.at(-1)?.event, 'worker:stopped')
  })

  it('drains on SIGTERM mid-batch: exits 0 within the timeout, no job lost, none failed', async () => {
    await db.pool.query('truncate pgqueuer, pgqueuer_log, test_runs')
    const n = 40
    const ids = (await enqueueMany(
      db.pool,
      Array.from({ length: n }, (_, i) => ({ entrypoint: 'test_sleep', payload: { ms: 300 + (i % 4) * 50 } })),
    )) as string[]
    worker = spawnWorker(
      workerEnv(db.url, {
        AIZK_QUEUE_BATCH_SIZE: '8',
        AIZK_QUEUE_CONCURRENT_TASKS: '8',
        AIZK_WORKER_ENTRYPOINTS: 'test_sleep',
        AIZK_SHUTDOWN_TIMEOUT_SECONDS: '20',
      }),
    )
    await worker.waitForCount(isEvent('job:completed', 'test_sleep'), 10, 'ten completions')
    worker.child.kill('SIGTERM')
    const { code } = await worker.exited
    assert.equal(code, 0, worker.stderr())

    const stopping = worker.events.find(isEvent('worker:stopping'))
    assert.ok(stopping && (stopping.inFlight as number) > 0, 'the signal came while jobs were running')
    const stopped = worker.events.find(isEvent('worker:stopped'))
    assert.equal(stopped?.released, 0, 'short jobs finish inside the timeout')

    const completed = new Set(worker.events.filter(isEvent('job:completed')).map((e) => e.jobId as string))
    const log = await db.pool.query<{ job_id: string; status: string }>('select job_id::text, status::text from pgqueuer_log')
    assert.deepEqual(
      log.rows.filter((r) => r.status !== 'successful'),
      [],
      'nothing failed',
    )
    assert.deepEqual(new Set(log.rows.map((r) => r.job_id)), completed)
    assert.equal(log.rows.length, completed.size, 'one log row per finished job')
    const left = await db.pool.query<{ id: string; status: string; attempts: number; queue_manager_id: string | null }>(
      'select id::text, status::text, attempts, queue_manager_id from pgqueuer order by id',
    )
    assert.ok(
      left.rows.every((r) => r.status === 'queued' && r.attempts === 0 && r.queue_manager_id === null),
      JSON.stringify(left.rows),
    )
    assert.deepEqual(new Set([...completed, ...left.rows.map((r) => r.id)]), new Set(ids), 'every job is either done or still queued')
    assert.ok(left.rows.length > 0, 'it stopped picking before the queue was empty')
    const registered = await db.pool.query('select count(*)::int as n from aizk_worker')
    assert.equal(registered.rows[0].n, 0, 'the worker removed itself')
  })
})
