// One worker process of bench/peers-load.mjs: aizk's Worker (from dist/, as `aizk worker` builds
// it: a queue pool and a pool for the handlers) or graphile-worker (installed outside this
// repository, in $PEERBENCH_DIR, as the peer harness's setup.sh does), draining one queue.
//   node bench/load-child.mjs <aizk|aizk-before|graphile-worker> <noop|dbwrite> <connectionString>
// The handler records its pickup latency (now - payload.t0, CLOCK_MONOTONIC ms) when the payload
// carries t0. `dbwrite`: the handler inserts one row into bench_side in its own transaction (one
// autocommit INSERT) on the worker's pool: aizk's handler pool (ctx.pool), graphile-worker's
// withPgClient. Knobs (env): BENCH_CONCURRENCY (16), BENCH_POOL (aizk's handler pool; default as
// `aizk worker` sizes it), BENCH_QUEUE_POOL (aizk's queue pool, 4), BENCH_BATCH (aizk, 64).
// Parent -> {cmd: start|status|report|stop}; child -> {type: loaded|started|status|report|stopped}.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const [system, mode, url] = process.argv.slice(2)
const env = process.env
const concurrency = Number(env.BENCH_CONCURRENCY ?? 16)
const now = () => Number(process.hrtime.bigint()) / 1e6
const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
const INSERT_SIDE = 'INSERT INTO bench_side (job) VALUES ($1)'

let handled = 0
const latencies = []
function onStart(payload) {
  if (payload && typeof payload.t0 === 'number') latencies.push(now() - payload.t0)
  handled++
}

// Modules load before 'loaded': the parent's CPU readings start after it, so they hold the drain alone.
const isAizk = system.startsWith('aizk')
const modules = isAizk ? await loadAizk() : await loadGraphile()

async function loadAizk() {
  // `aizk-before`: another checkout's build (AIZK_BEFORE_DIR), for a before/after in one run, with
  // that checkout's own zod and pg (its registry checks schemas against its own zod).
  if (system !== 'aizk-before') return { pg: (await import('pg')).default, zod: await import('zod'), aizk: await import('../dist/index.js') }
  const dir = env.AIZK_BEFORE_DIR ?? ''
  const from = (name) => import(pathToFileURL(esmEntry(dir, name)).href)
  return { pg: (await from('pg')).default, zod: await from('zod'), aizk: await import(pathToFileURL(path.join(dir, 'dist', 'index.js')).href) }
}

/** The file `import(name)` loads from a module inside `dir` (its package's `exports` import entry). */
function esmEntry(dir, name) {
  const pkgDir = path.dirname(createRequire(path.join(dir, 'package.json')).resolve(`${name}/package.json`))
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'))
  const dot = typeof pkg.exports === 'string' ? pkg.exports : pkg.exports?.['.']
  const entry = typeof dot === 'string' ? dot : (dot?.import?.default ?? dot?.import ?? dot?.default ?? pkg.main ?? 'index.js')
  return path.join(pkgDir, entry)
}

async function loadGraphile() {
  const dir = env.PEERBENCH_DIR ?? '/tmp/peerbench'
  const peer = createRequire(path.join(dir, 'package.json'))
  return { graphile: await import(pathToFileURL(peer.resolve('graphile-worker')).href) }
}

async function aizkWorker() {
  const {
    pg,
    zod: { z },
    aizk: { JobRegistry, QueueJob, Worker, parseSettings },
  } = modules
  class BenchJob extends QueueJob {
    static entrypoint = 'bench_noop'
    static payload = z.any()
    async handle(payload, ctx) {
      onStart(payload)
      if (mode === 'dbwrite') await ctx.pool.query(INSERT_SIDE, [payload.i ?? 0])
    }
  }
  const registry = new JobRegistry()
  registry.register(BenchJob)
  const pool = new pg.Pool({ connectionString: url, max: Number(env.BENCH_QUEUE_POOL ?? 4) })
  const workPool = new pg.Pool({ connectionString: url, max: Number(env.BENCH_POOL ?? Math.min(64, 8 + Math.ceil(concurrency / 16))) })
  pool.on('error', () => {})
  workPool.on('error', () => {})
  if (env.BENCH_COUNT_STATEMENTS) countStatements(pool)
  const worker = new Worker({
    pool,
    workPool,
    registry,
    settings: parseSettings({ AIZK_QUEUE_PICKS_IN_FLIGHT: env.AIZK_QUEUE_PICKS_IN_FLIGHT }),
    batchSize: Number(env.BENCH_BATCH ?? 64),
    concurrency,
    listen: { connectionString: url },
  })
  await worker.start()
  return async () => {
    await worker.stop({ timeoutMs: 5000 })
    await Promise.all([pool.end(), workPool.end()])
  }
}

async function graphileWorker() {
  const { run, Logger } = modules.graphile
  const logger = new Logger(() => (level, message) => {
    if (level === 'error' || level === 'warning') console.error(`[graphile-worker ${level}] ${message}`)
  })
  const runner = await run({
    connectionString: url,
    concurrency,
    maxPoolSize: Number(env.BENCH_POOL ?? concurrency + 1),
    noHandleSignals: true,
    logger,
    taskList: {
      bench_noop: async (payload, helpers) => {
        onStart(payload)
        if (mode === 'dbwrite') await helpers.withPgClient((client) => client.query(INSERT_SIDE, [payload.i ?? 0]))
      },
    },
    // The harness's `batched` profile.
    preset: { worker: { localQueue: { size: 500 }, completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
  })
  return () => runner.stop()
}

/** BENCH_COUNT_STATEMENTS=1: the queue pool's statements by name and their rows (a heartbeat's: the picked rows it touched), printed on stop. */
const statements = new Map()
function countStatements(pool) {
  const query = pool.query.bind(pool)
  pool.query = async (...args) => {
    const name = args[0]?.name ?? String(args[0]?.text ?? args[0]).slice(0, 40)
    const r = await query(...args)
    const e = statements.get(name) ?? { n: 0, rows: 0 }
    e.n++
    e.rows += r.rows?.[0]?.touched ?? r.rowCount ?? 0
    statements.set(name, e)
    return r
  }
}

let stop
process.on('message', async (m) => {
  try {
    if (m.cmd === 'start') {
      const tStart = now()
      const cpu = cpuMs()
      stop = isAizk ? await aizkWorker() : await graphileWorker()
      process.send({ type: 'started', tStart, cpuMs: cpu })
    } else if (m.cmd === 'status') {
      process.send({ type: 'status', handled, cpuMs: cpuMs() })
    } else if (m.cmd === 'report') {
      process.send({ type: 'report', handled, latencies: latencies.splice(0) })
    } else if (m.cmd === 'stop') {
      await stop?.()
      for (const [name, e] of statements)
        console.error(`statements ${name}: ${e.n} calls, ${(e.rows / e.n).toFixed(1)} rows avg, ${(e.n / Math.max(1, handled)).toFixed(4)} per job`)
      process.send({ type: 'stopped', handled }, () => process.exit(0))
    }
  } catch (err) {
    console.error(`[load-child ${system}] ${err.stack ?? err}`)
    process.send({ type: 'error', message: String(err.message ?? err) }, () => process.exit(1))
  }
})
process.on('disconnect', () => process.exit(0))
process.send({ type: 'loaded' })
