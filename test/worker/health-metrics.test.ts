import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { closePool, createPool } from '../../src/db/connect.js'
import { CallTracker } from '../../src/db/deadline-client.js'
import { WorkerEvents } from '../../src/events.js'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { createHealthService, type HealthService } from '../../src/worker/health.js'
import { createWorkerMetrics, type WorkerMetrics } from '../../src/worker/metrics.js'
import { createEmptyDatabase, testDatabase } from '../support/db.js'

const settings = { appRole: 'aizk_app', heartbeatTimeoutSeconds: 30 }

async function get(port: number, path: string) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`)
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text() }
}

function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`)
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue
    const m = line.match(/^([a-z_]+)(\{([^}]*)\})? (\S+)$/)
    if (!m || m[1] !== name) continue
    const have = (m[3] ?? '').split(',').filter(Boolean)
    if (want.every((w) => have.includes(w)) && have.length === want.length) return Number(m[4])
  }
  return undefined
}

describe('health and metrics', () => {
  const db = testDatabase()
  let events: WorkerEvents
  let metrics: WorkerMetrics
  let health: HealthService
  const probe = { draining: false, lastTurnAt: Date.now(), databaseDown: '' }

  before(async () => {
    events = new WorkerEvents()
    metrics = createWorkerMetrics({ events, db: db.pool, depthCacheMs: 0 })
    health = createHealthService({ port: 0, host: '127.0.0.1', pool: db.pool, settings, events, probe, metrics, loopStaleMs: 60_000 })
    await health.start()
  })
  db.beforeDrop(async () => {
    await health.stop()
    metrics.detach()
  })

  it('serves queue depth by entrypoint and status from the live counts', async () => {
    await enqueueMany(db.pool, [
      ...Array.from({ length: 3 }, () => ({ entrypoint: 'depth_a', priority: 1 })),
      ...Array.from({ length: 2 }, () => ({ entrypoint: 'depth_a', priority: 9 })),
      { entrypoint: 'depth_b' },
    ])
    await db.pool.query("update pgqueuer set status = 'failed' where entrypoint = 'depth_b'")
    events.emit('worker:started', {
      queueManagerId: 'a7c1f0e2-0000-4000-8000-000000000001',
      entrypoints: ['depth_a', 'depth_idle'],
      batchSize: 1,
      concurrency: 1,
      localQueueSize: 4,
      pid: 1,
      host: 'h',
    })
    const res = await get(health.port, '/metrics')
    assert.equal(res.status, 200)
    assert.match(res.type, /^text\/plain; version=0\.0\.4/)
    assert.equal(sample(res.body, 'aizk_queue_depth', { entrypoint: 'depth_a', status: 'queued' }), 5)
    assert.equal(sample(res.body, 'aizk_queue_depth', { entrypoint: 'depth_b', status: 'failed' }), 1)
    assert.equal(sample(res.body, 'aizk_queue_depth', { entrypoint: 'depth_b', status: 'queued' }), undefined)
    assert.equal(sample(res.body, 'aizk_queue_depth', { entrypoint: 'depth_idle', status: 'queued' }), 0, 'a bound entrypoint reports 0')
    assert.ok(sample(res.body, 'process_resident_memory_bytes') !== undefined, 'process metrics included')
  })

  it('reports artifacts whose original failed re-verification', async () => {
    const scopes = '{00000000-0000-4000-a000-0000000000aa}'
    await db.pool.query(
      `insert into artifact (scopes, content_id, integrity_status) values
      ($1, 'c1', 'mismatch'), ($1, 'c2', 'missing'), ($1, 'c3', 'missing'), ($1, 'c4', 'ok')`,
      [scopes],
    )
    const res = await get(health.port, '/metrics')
    assert.equal(sample(res.body, 'aizk_artifact_integrity_failures', { status: 'mismatch' }), 1)
    assert.equal(sample(res.body, 'aizk_artifact_integrity_failures', { status: 'missing' }), 2)
  })

  it('counts picked, completed, retried, held by entrypoint, in flight and the pick latency', async () => {
    events.emit('job:picked', { jobId: '1', entrypoint: 'm1', priority: 0, attempts: 0, waitMs: 20 })
    events.emit('job:picked', { jobId: '2', entrypoint: 'm1', priority: 0, attempts: 0, waitMs: 2000 })
    events.emit('job:picked', { jobId: '3', entrypoint: 'm1', priority: 0, attempts: 0, waitMs: 1 })
    events.emit('job:picked', { jobId: '4', entrypoint: 'm2', priority: 0, attempts: 0, waitMs: 1 })
    events.emit('job:completed', { jobId: '1', entrypoint: 'm1', durationMs: 5 })
    events.emit('job:retried', { jobId: '2', entrypoint: 'm1', attempts: 1, error: 'x', retryInMs: 2000, durationMs: 5 })
    events.emit('job:held', { jobId: '4', entrypoint: 'm2', attempts: 5, error: 'x', durationMs: 5 })
    const { body } = await get(health.port, '/metrics')
    assert.equal(sample(body, 'aizk_worker_jobs_picked_total', { entrypoint: 'm1' }), 3)
    assert.equal(sample(body, 'aizk_worker_jobs_completed_total', { entrypoint: 'm1' }), 1)
    assert.equal(sample(body, 'aizk_worker_jobs_retried_total', { entrypoint: 'm1' }), 1)
    assert.equal(sample(body, 'aizk_worker_jobs_held_total', { entrypoint: 'm2' }), 1)
    assert.equal(sample(body, 'aizk_worker_jobs_in_flight', { entrypoint: 'm1' }), 1)
    assert.equal(sample(body, 'aizk_worker_jobs_in_flight', { entrypoint: 'm2' }), 0)
    assert.equal(sample(body, 'aizk_worker_pick_latency_seconds_count', { entrypoint: 'm1' }), 3)
    assert.equal(sample(body, 'aizk_worker_pick_latency_seconds_bucket', { entrypoint: 'm1', le: '0.025' }), 2)
  })

  it('keeps one registry per worker: a second one starts from zero', async () => {
    const other = createWorkerMetrics({ events: new WorkerEvents(), processMetrics: false })
    const text = await other.render()
    assert.equal(sample(text, 'aizk_worker_jobs_picked_total', { entrypoint: 'm1' }), undefined)
    other.detach()
  })

  it('answers /livez while the loop turns and the database answers, 503 when the loop is stale', async () => {
    probe.lastTurnAt = Date.now()
    const ok = await get(health.port, '/livez')
    assert.equal(ok.status, 200)
    assert.equal(JSON.parse(ok.body).status, 'ok')
    probe.lastTurnAt = Date.now() - 120_000
    const stale = await get(health.port, '/livez')
    assert.equal(stale.status, 503)
    assert.equal(JSON.parse(stale.body).checks.loop.ok, false)
    probe.lastTurnAt = Date.now()
  })

  it('answers /livez 503 while a handler statement waits past its own deadline (a connection nothing ends)', async () => {
    const calls = new CallTracker()
    const handlersProbe = { draining: false, lastTurnAt: Date.now(), stuckHandlerCalls: (slackMs: number) => calls.overdue(slackMs) }
    const h = createHealthService({
      port: 0,
      host: '127.0.0.1',
      pool: db.pool,
      settings,
      events: new WorkerEvents(),
      probe: handlersProbe,
      loopStaleMs: 60_000,
    })
    await h.start()
    try {
      const long = calls.begin(60_000)
      const stuck = calls.begin(50)
      assert.equal((await get(h.port, '/livez')).status, 200, 'statements within their deadlines')
      // Past its deadline and the second of slack a busy event loop is allowed.
      await new Promise((resolve) => setTimeout(resolve, 1200))
      handlersProbe.lastTurnAt = Date.now()
      const res = await get(h.port, '/livez')
      assert.equal(res.status, 503)
      assert.match(JSON.parse(res.body).checks.handlers.detail, /^1 handler statement\(s\) waited past their deadline/)
      calls.end(stuck)
      assert.equal((await get(h.port, '/livez')).status, 200, 'a statement that asked for a long deadline is not stuck within it')
      calls.end(long)
    } finally {
      await h.stop()
    }
  })

  it('answers /readyz 200 with the schema current, 503 while draining', async () => {
    const ready = await get(health.port, '/readyz')
    assert.equal(ready.status, 200, ready.body)
    probe.draining = true
    const draining = await get(health.port, '/readyz')
    assert.equal(draining.status, 503)
    assert.equal(JSON.parse(draining.body).checks.draining.detail, 'draining')
    probe.draining = false
    assert.equal((await get(health.port, '/nope')).status, 404)
  })

  it('answers /readyz 503 while the worker counts the database away, or the server it reaches is read-only', async () => {
    probe.databaseDown = 'cannot execute UPDATE in a read-only transaction'
    const away = await get(health.port, '/readyz')
    assert.equal(away.status, 503)
    assert.equal(JSON.parse(away.body).checks.writable.detail, 'database away: cannot execute UPDATE in a read-only transaction')
    probe.databaseDown = ''
    assert.equal((await get(health.port, '/readyz')).status, 200)
    // A pool whose sessions start read-only: the parameter the server reported says so, no outage needed.
    const u = new URL(db.url)
    u.searchParams.set('options', '-c default_transaction_read_only=on')
    const readOnly = createPool(u.toString(), { max: 1 })
    const h = createHealthService({ port: 0, host: '127.0.0.1', pool: readOnly, settings, events: new WorkerEvents() })
    await h.start()
    try {
      const res = await get(h.port, '/readyz')
      assert.equal(res.status, 503)
      const checks = JSON.parse(res.body).checks
      assert.equal(checks.writable.detail, 'the server is read-only (default_transaction_read_only is on)')
      assert.equal(checks.schema.ok, true)
    } finally {
      await h.stop()
      await closePool(readOnly, 1000)
    }
  })

  it('answers /readyz 503 on a database without the schema', async () => {
    const empty = await createEmptyDatabase()
    const h = createHealthService({ port: 0, host: '127.0.0.1', pool: empty.pool, settings, events: new WorkerEvents() })
    await h.start()
    try {
      const res = await get(h.port, '/readyz')
      assert.equal(res.status, 503)
      assert.equal(JSON.parse(res.body).checks.schema.detail, 'schema not installed')
      assert.equal((await get(h.port, '/livez')).status, 200)
    } finally {
      await h.stop()
      await empty.drop()
    }
  })

  it('refuses a port in use with a conflict error', async () => {
    const h = createHealthService({ port: health.port, host: '127.0.0.1', pool: db.pool, settings, events })
    await assert.rejects(h.start(), (err: Error & { exitCode?: number }) => err.exitCode === 6 && /in use/.test(err.message))
    await h.stop()
  })
})
