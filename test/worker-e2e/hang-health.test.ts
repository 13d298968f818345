import assert from 'node:assert/strict'
import { afterEach, before, describe, it } from 'node:test'
import { enqueue, enqueueMany } from '../../src/queue/enqueue.js'
import { fileDatabase } from '../support/db.js'
import { freePort, isEvent, spawnWorker, type WorkerProcess, workerEnv } from '../support/worker-process.js'

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

async function get(port: number, path: string) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`)
  return { status: res.status, body: await res.text() }
}

/** The value of one sample line of a Prometheus exposition, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('aizk worker end to end: a handler that never settles, health and metrics', () => {
  it('keeps running other jobs past a hung handler, answers /metrics and /readyz meanwhile, releases it on SIGTERM', async () => {
    const port = await freePort()
    worker = spawnWorker(
      workerEnv(db.url, {
        AIZK_QUEUE_BATCH_SIZE: '4',
        AIZK_QUEUE_CONCURRENT_TASKS: '4',
        AIZK_WORKER_ENTRYPOINTS: 'test_hang,test_noop',
        AIZK_WORKER_HEALTH_PORT: String(port),
        // No job timeout: the hung handler keeps its slot for good, and the others still flow.
        AIZK_JOB_TIMEOUT_SECONDS: '0',
        AIZK_SHUTDOWN_TIMEOUT_SECONDS: '1',
      }),
    )
    await worker.waitFor(isEvent('worker:started'), 'the worker to start')
    const hangId = String(await enqueue(db.pool, { entrypoint: 'test_hang' }))
    await worker.waitFor((e) => e.event === 'job:picked' && e.jobId === hangId, 'the hanging job to be picked')
    const ids = (await enqueueMany(
      db.pool,
      Array.from({ length: 300 }, (_, i) => ({ entrypoint: 'test_noop', payload: { i } })),
    )) as string[]
    await worker.waitForCount(isEvent('job:completed', 'test_noop'), ids.length, 'every other job to complete')

    const metrics = await get(port, '/metrics')
    assert.equal(metrics.status, 200)
    assert.equal(sample(metrics.body, 'aizk_worker_jobs_completed_total{entrypoint="test_noop"}'), 300)
    assert.equal(sample(metrics.body, 'aizk_worker_jobs_picked_total{entrypoint="test_hang"}'), 1)
    assert.equal(sample(metrics.body, 'aizk_worker_jobs_in_flight{entrypoint="test_hang"}'), 1)
    assert.equal(sample(metrics.body, 'aizk_worker_jobs_in_flight{entrypoint="test_noop"}'), 0)
    assert.equal(sample(metrics.body, 'aizk_queue_depth{entrypoint="test_hang",status="picked"}'), 1)
    assert.ok((sample(metrics.body, 'aizk_worker_pick_latency_seconds_count{entrypoint="test_noop"}') ?? 0) >= 300)
    const ready = await get(port, '/readyz')
    assert.equal(ready.status, 200, ready.body)
    const live = await get(port, '/livez')
    assert.equal(live.status, 200, live.body)

    worker.child.kill('SIGTERM')
    const { code } = await worker.exited
    assert.equal(code, 0, worker.stderr())
    assert.ok(
      worker.events.some((e) => e.event === 'job:released' && e.jobId === hangId),
      'the hung job was released',
    )
    const row = await db.pool.query('select status::text, attempts, queue_manager_id from pgqueuer where id = $1', [hangId])
    assert.deepEqual(row.rows, [{ status: 'queued', attempts: 0, queue_manager_id: null }], 'back to queued without counting an attempt')
    const log = await db.pool.query<{ n: number }>("select count(*)::int as n from pgqueuer_log where status = 'successful'")
    assert.equal(log.rows[0].n, 300)
    assert.deepEqual(worker.badLines, [])
  })

  it('answers /readyz 503 while draining', async () => {
    await db.pool.query('truncate pgqueuer, pgqueuer_log')
    const port = await freePort()
    worker = spawnWorker(
      workerEnv(db.url, {
        AIZK_WORKER_ENTRYPOINTS: 'test_hang',
        AIZK_WORKER_HEALTH_PORT: String(port),
        AIZK_JOB_TIMEOUT_SECONDS: '0',
        AIZK_SHUTDOWN_TIMEOUT_SECONDS: '30',
      }),
    )
    await worker.waitFor(isEvent('worker:started'), 'the worker to start')
    await enqueue(db.pool, { entrypoint: 'test_hang' })
    await worker.waitFor(isEvent('job:picked'), 'the hanging job to be picked')
    assert.equal((await get(port, '/readyz')).status, 200)
    worker.child.kill('SIGTERM')
    await worker.waitFor(isEvent('worker:stopping'), 'the drain to begin')
    const draining = await get(port, '/readyz')
    assert.equal(draining.status, 503)
    assert.equal(JSON.parse(draining.body).checks.draining.ok, false)
    assert.equal((await get(port, '/livez')).status, 200, 'alive while draining')
    worker.child.kill('SIGTERM')
    const exit = await worker.exited
    assert.ok(exit.code !== 0 || exit.signal === 'SIGTERM', 'the second signal ends it at once')
  })
})
