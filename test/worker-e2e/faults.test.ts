/**
 * Worker faults from issue 11, on real processes: a worker started while PostgreSQL refuses
 * connections waits (saying so, /readyz 503) and starts once the server answers; one that waits
 * longer than AIZK_WORKER_STARTUP_WAIT_SECONDS exits 4; and SIGTERM ends the process after the
 * shutdown timeout even when handlers ignore their abort signal.
 */
import assert from 'node:assert/strict'
import net from 'node:net'
import { afterEach, before, describe, it } from 'node:test'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { fileDatabase } from '../support/db.js'
import { freePort, isEvent, spawnWorker, type WorkerProcess, workerEnv } from '../support/worker-process.js'

const db = await fileDatabase()
let worker: WorkerProcess | undefined
let proxy: net.Server | undefined

before(async () => {
  await db.pool.query(
    `create table test_runs (id bigserial primary key, job_id bigint, entrypoint text, attempts int, pid int, note text, at timestamptz default now())`,
  )
})
afterEach(async () => {
  await worker?.kill()
  worker = undefined
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()))
  proxy = undefined
})

/** The test database's server behind a port that opens only when the test says so. */
function openProxy(port: number): Promise<net.Server> {
  const target = new URL(db.url)
  const server = net.createServer((socket) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname)
    socket.pipe(upstream).pipe(socket)
    const end = () => {
      socket.destroy()
      upstream.destroy()
    }
    socket.on('error', end)
    upstream.on('error', end)
    socket.on('close', end)
  })
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)))
}

async function probe(port: number, path: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`)
  return { status: res.status, body: await res.text() }
}

describe('worker start-up waits for PostgreSQL', () => {
  it('retries while the server refuses, not ready meanwhile, then starts and runs jobs', async () => {
    const dbPort = await freePort()
    const healthPort = await freePort()
    const url = new URL(db.url)
    url.port = String(dbPort)
    worker = spawnWorker(
      workerEnv(url.toString(), { AIZK_WORKER_STARTUP_WAIT_SECONDS: '120', AIZK_WORKER_HEALTH_PORT: String(healthPort), AIZK_WORKER_ENTRYPOINTS: 'test_noop' }),
    )
    const waiting = await worker.waitFor(isEvent('worker:waiting'), 'a waiting line')
    assert.match(String(waiting.error), /ECONNREFUSED|cannot reach/)
    assert.equal(waiting.giveUpAfterMs, 120_000)
    await worker.waitForCount(isEvent('worker:waiting'), 2, 'a second attempt')
    const ready = await probe(healthPort, '/readyz')
    assert.equal(ready.status, 503)
    assert.match(ready.body, /waiting for PostgreSQL/)
    assert.equal((await probe(healthPort, '/livez')).status, 200)

    proxy = await openProxy(dbPort)
    await worker.waitFor(isEvent('worker:started'), 'the worker to start once the server answers')
    const [id] = (await enqueueMany(db.pool, [{ entrypoint: 'test_noop', payload: {} }])) as string[]
    await worker.waitFor((e) => e.event === 'job:completed' && e.jobId === id, 'the job to run')
    assert.equal((await probe(healthPort, '/readyz')).status, 200)
    worker.child.kill('SIGTERM')
    assert.equal((await worker.exited).code, 0, worker.stderr())
  })

  it('gives up after the documented wait: exit 4 naming the server', async () => {
    const url = new URL(db.url)
    url.port = String(await freePort())
    worker = spawnWorker(workerEnv(url.toString(), { AIZK_WORKER_STARTUP_WAIT_SECONDS: '1' }))
    const { code } = await worker.exited
    assert.equal(code, 4)
    assert.ok(worker.events.some(isEvent('worker:waiting')))
    assert.match(worker.stderr(), /error: cannot reach PostgreSQL at 127\.0\.0\.1:\d+/)
  })
})

describe('SIGTERM ends the process after the shutdown timeout', () => {
  it('even when handlers ignore their abort signal: jobs released, exit 0', { timeout: 90_000 }, async () => {
    const n = 6
    const ids = (await enqueueMany(
      db.pool,
      Array.from({ length: n }, () => ({ entrypoint: 'test_ignore_abort', payload: { ms: 600_000 } })),
    )) as string[]
    worker = spawnWorker(workerEnv(db.url, { AIZK_SHUTDOWN_TIMEOUT_SECONDS: '1', AIZK_WORKER_ENTRYPOINTS: 'test_ignore_abort' }))
    await worker.waitForCount(isEvent('job:picked', 'test_ignore_abort'), n, 'every job picked')
    worker.child.kill('SIGTERM')
    // Without the fix the process lives until the handlers' ten-minute sleeps end.
    const { code, signal } = await worker.exited
    assert.equal(signal, null)
    assert.equal(code, 0, worker.stderr())
    const stopped = worker.events.find(isEvent('worker:stopped'))
    assert.equal(stopped?.released, n)
    const { rows } = await db.pool.query(`select status::text, queue_manager_id from pgqueuer where id = any($1::bigint[])`, [ids])
    assert.deepEqual(
      rows.map((r) => [r.status, r.queue_manager_id]),
      Array.from({ length: n }, () => ['queued', null]),
    )
  })
})
