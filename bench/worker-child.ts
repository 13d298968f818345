/**
 * One benchmark worker process: the same Worker loop `aizk worker` runs, bound to the bench
 * entrypoint only (or BENCH_SPREAD_ENTRYPOINTS of them). Driven by its parent over IPC: start, status, report, stop.
 */
import pg from 'pg'
import { JobRegistry } from '../src/jobs/registry.js'
import { PICK_LEASE } from '../src/queue/pick.js'
import { parseSettings } from '../src/settings.js'
import { startTracingSdk, type TracingSdk } from '../src/tracing/sdk.js'
import { Worker } from '../src/worker/worker.js'
import { benchStats, monotonicMs, spreadJobs } from './bench-jobs.js'

const [url, batch, concurrency] = process.argv.slice(2)
const settings = parseSettings(process.env)
const registry = new JobRegistry()
for (const job of spreadJobs(Number(process.env.BENCH_SPREAD_ENTRYPOINTS ?? 1))) registry.register(job)
const pool = new pg.Pool({ connectionString: url, max: 12, application_name: 'aizk-bench-worker' })
pool.on('error', () => {})
let worker: Worker | undefined
let tracing: TracingSdk | undefined
// BENCH_PROFILE=1: time each statement by name and print a summary on stop.
const profile = new Map<string, { n: number; ms: number; rows: number }>()
if (process.env.BENCH_PROFILE) {
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<pg.QueryResult>
  ;(pool as unknown as { query: unknown }).query = async (...args: unknown[]) => {
    const name = (args[0] as { name?: string }).name ?? 'other'
    const t = performance.now()
    const r = await query(...args)
    const e = profile.get(name) ?? { n: 0, ms: 0, rows: 0 }
    e.n++
    e.ms += performance.now() - t
    e.rows += r.rowCount ?? 0
    profile.set(name, e)
    return r
  }
}
// BENCH_DURABLE_PICK=1 (section c's A/B): every pick waits for the WAL flush, as before the lease pick.
const DURABLE_PICK = { name: 'bench_durable_pick', text: PICK_LEASE.text.replace(/ WHERE set_config\('synchronous_commit'.*$/, '') }
if (process.env.BENCH_DURABLE_PICK) {
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<pg.QueryResult>
  ;(pool as unknown as { query: unknown }).query = (...args: unknown[]) => {
    const q = args[0] as { name?: string }
    return query(q?.name === PICK_LEASE.name ? { ...q, ...DURABLE_PICK } : q, ...args.slice(1))
  }
}
const send = (m: object) => process.send?.(m)
const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

/** BENCH_LOCAL_QUEUE (section j's tied arm: 0): the local queue's size; unset, the default. */
function localQueueSize(): number | undefined {
  return process.env.BENCH_LOCAL_QUEUE === undefined ? undefined : Number(process.env.BENCH_LOCAL_QUEUE)
}

process.on('message', async (m: { cmd: string }) => {
  if (m.cmd === 'start') {
    // BENCH_OTEL=1 (section t's traced side): the SDK `aizk worker` starts from OTEL_*.
    tracing = process.env.BENCH_OTEL ? await startTracingSdk(process.env) : undefined
    const tStart = monotonicMs()
    worker = new Worker({
      pool,
      registry,
      settings,
      batchSize: Number(batch),
      concurrency: Number(concurrency),
      localQueueSize: localQueueSize(),
      listen: { connectionString: url, application_name: 'aizk-bench-worker' },
    })
    await worker.start()
    send({ type: 'started', tStart, tReady: monotonicMs(), cpuMs: cpuMs() })
  } else if (m.cmd === 'status') {
    send({ type: 'status', handled: benchStats.handled, rssMb: process.memoryUsage().rss / 2 ** 20, cpuMs: cpuMs() })
  } else if (m.cmd === 'report') {
    send({ type: 'report', handled: benchStats.handled, latencies: benchStats.latencies })
  } else if (m.cmd === 'stop') {
    await worker?.stop({ timeoutMs: 5000 })
    await tracing?.shutdown()
    if (process.env.BENCH_PROFILE) {
      const cpu = process.cpuUsage()
      process.stderr.write(`profile worker cpu: user ${(cpu.user / 1000).toFixed(0)} ms, system ${(cpu.system / 1000).toFixed(0)} ms\n`)
    }
    for (const [name, e] of profile) {
      process.stderr.write(
        `profile ${name}: ${e.n} calls, ${(e.ms / e.n).toFixed(2)} ms avg, ${(e.rows / e.n).toFixed(1)} rows avg, ${e.ms.toFixed(0)} ms total\n`,
      )
    }
    await pool.end()
    send({ type: 'stopped', handled: benchStats.handled })
    process.disconnect?.()
  }
})
process.on('disconnect', () => process.exit(0))
send({ type: 'loaded' })
