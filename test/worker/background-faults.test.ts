/**
 * A server restart as the worker's background passes meet it (the scheduler, the queue vacuum,
 * the count compaction): every open connection is told "terminating connection due to
 * administrator command" (57P01), then connections are refused, then the server answers "the
 * database system is starting up" (57P03), then it is back. That is one outage, one 'db:lost'
 * and one 'db:reconnected', with no 'worker:error' and nothing counted in
 * aizk_worker_errors_total. The restart is acted out by a TCP front in this process.
 */
import assert from 'node:assert/strict'
import net from 'node:net'
import { before, describe, it } from 'node:test'
import { enqueue } from '../../src/queue/enqueue.js'
import { fileDatabase } from '../support/db.js'
import { FIXTURE_TABLES, fastWorkerEnv, freePort, isEvent, spawnWorker, type WorkerProcess } from '../support/worker-process.js'

const db = await fileDatabase()
let worker: WorkerProcess | undefined

before(async () => {
  await db.pool.query(FIXTURE_TABLES)
})
db.beforeDrop(async () => {
  await worker?.kill()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A PostgreSQL ErrorResponse message (FATAL) with its SQLSTATE. */
function fatal(code: string, message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0\0`)
  const head = Buffer.alloc(5)
  head.write('E', 0)
  head.writeInt32BE(fields.length + 4, 1)
  return Buffer.concat([head, fields])
}

interface RestartingFront {
  url: string
  /** Tell every connection 57P01 and close it; stop listening (new connections are refused). */
  shutDown(): Promise<void>
  /** Listen again, answering every new connection 57P03 "starting up". */
  startingUp(): Promise<void>
  /** Forward to the server again. */
  up(): void
  close(): Promise<void>
}

async function startRestartingFront(targetUrl: string): Promise<RestartingFront> {
  const target = new URL(targetUrl)
  const port = await freePort()
  let starting = false
  const sockets = new Set<net.Socket>()
  const track = (socket: net.Socket) => {
    sockets.add(socket)
    socket.on('error', () => {})
    socket.on('close', () => sockets.delete(socket))
  }
  const clients = new Set<net.Socket>()
  const server = net.createServer((client) => {
    track(client)
    if (starting) {
      client.once('data', () => client.end(fatal('57P03', 'the database system is starting up')))
      return
    }
    const upstream = net.connect({ port: Number(target.port || 5432), host: target.hostname })
    track(upstream)
    clients.add(client)
    client.pipe(upstream)
    upstream.pipe(client)
    client.on('close', () => {
      clients.delete(client)
      upstream.destroy()
    })
    upstream.on('close', () => {
      if (server.listening) client.destroy()
    })
  })
  const listen = () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()))
  // Whatever a client did not close itself after its last word goes too, so close() always ends.
  const stopListening = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    await sleep(200)
    for (const socket of sockets) socket.destroy()
    await closed
  }
  await listen()
  const url = new URL(targetUrl)
  url.hostname = '127.0.0.1'
  url.port = String(port)
  return {
    url: url.toString(),
    async shutDown() {
      for (const client of clients) {
        client.unpipe()
        client.end(fatal('57P01', 'terminating connection due to administrator command'))
      }
      await stopListening()
    },
    async startingUp() {
      starting = true
      await listen()
    },
    up() {
      starting = false
    },
    close: () => (server.listening ? stopListening() : Promise.resolve()),
  }
}

describe('a server restart under the background passes', () => {
  it('is one db:lost and one db:reconnected: no worker:error, nothing in the errors metric, and work goes on', async () => {
    const front = await startRestartingFront(db.url)
    const healthPort = await freePort()
    try {
      worker = spawnWorker(
        fastWorkerEnv(front.url, {
          AIZK_WORKER_OUTPUT: 'json',
          // The scheduler and the queue vacuum (a look every 2 s) run beside the count compaction.
          AIZK_WORKER_NO_SCHEDULER: 'false',
          AIZK_QUEUE_VACUUM_ROWS: '1000',
          AIZK_WORKER_HEALTH_PORT: String(healthPort),
          AIZK_DB_DEADLINE_SECONDS: '2',
          AIZK_LISTEN_CHECK_SECONDS: '0.5',
        }),
      )
      await worker.waitFor(isEvent('worker:started'), 'the worker starting')
      await sleep(2500)

      await front.shutDown()
      await sleep(3000)
      await front.startingUp()
      await sleep(6000)
      front.up()
      await worker.waitFor(isEvent('db:reconnected'), 'the worker reconnecting', 30_000)
      const id = String(await enqueue(db.pool, { entrypoint: 'test_noop', payload: { after: 'restart' } }))
      await worker.waitFor((e) => e.event === 'job:completed' && e.jobId === id, 'a job after the restart', 30_000)
      // A few more turns of every background pass on the healed path.
      await sleep(2500)

      const metrics = await (await fetch(`http://127.0.0.1:${healthPort}/metrics`, { signal: AbortSignal.timeout(10_000) })).text()
      await worker.stop()
      const errors = worker.events.filter(isEvent('worker:error'))
      assert.deepEqual(errors, [], 'a restart is an outage, not an error')
      const lost = worker.events.filter(isEvent('db:lost'))
      assert.ok(lost.length >= 1, 'the outage is told')
      assert.equal(lost.length, worker.events.filter(isEvent('db:reconnected')).length, 'each loss ends in a reconnect')
      assert.doesNotMatch(metrics, /^aizk_worker_errors_total\{/m, 'nothing counted as an error')
      assert.match(metrics, /^aizk_worker_db_up 1$/m)
    } finally {
      await worker?.kill()
      await front.close()
    }
  })
})
