/**
 * (j) `npm run bench` section: the drain at a handler concurrency below the batch size (issue 15
 * targets 1 and 6). At 16 and at 64 in flight (BENCH_LOCAL_CONCURRENCY, "16 64"), one worker
 * drains with batch 64 (picks up to 64 per round trip into its local queue) and, alternating
 * on one database, with the pick batch tied to the concurrency (batch = concurrency). Prints
 * jobs/s and cpuMsPer1k of each, the worker + backends CPU per 1,000 jobs (the figure that holds
 * while other work shares the machine), and batch-64 / tied as ratios (medians of BENCH_ROUNDS).
 */
import type pg from 'pg'
import { enqueueMany } from '../src/queue/enqueue.js'
import { BENCH_ENTRYPOINT, monotonicMs } from './bench-jobs.js'
import { backendCpuMs, backendCpuSpent, cpuBusyMs, cpuMsPer1k } from './cpu.js'
import { forkBenchWorker } from './worker-process.js'

export interface LocalQueueOptions {
  url: string
  jobs: number
  rounds: number
  batch: number
  concurrencies: number[]
}

interface Sample {
  rate: number
  cpu: number
  own: number
  logged: number
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

async function drainOnce(pool: pg.Pool, o: LocalQueueOptions, batch: number, concurrency: number): Promise<Sample> {
  await pool.query('TRUNCATE pgqueuer, pgqueuer_log, aizk_queue_count, aizk_queue_count_delta, aizk_throughput')
  for (let b = 0; b < o.jobs; b += 1000) {
    await enqueueMany(
      pool,
      Array.from({ length: Math.min(1000, o.jobs - b) }, (_, k) => ({ entrypoint: BENCH_ENTRYPOINT, payload: { i: b + k } })),
    )
  }
  await pool.query('VACUUM ANALYZE')
  await pool.query('CHECKPOINT')
  const w = await forkBenchWorker({ url: o.url, batch, concurrency })
  const cpu0 = cpuBusyMs()
  const back0 = await backendCpuMs(pool)
  const { tStart, cpuMs: w0 } = await w.request<{ tStart: number; cpuMs: number }>('start', 'started')
  for (;;) {
    const { rows } = await pool.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM pgqueuer) AS any')
    if (!rows[0].any) break
    await sleep(20)
  }
  const rate = o.jobs / ((monotonicMs() - tStart) / 1000)
  const cpu = cpuMsPer1k(cpu0, o.jobs)
  const { cpuMs: w1 } = await w.request<{ cpuMs: number }>('status', 'status')
  const own = ((w1 - w0 + backendCpuSpent(back0, await backendCpuMs(pool))) / o.jobs) * 1000
  await w.stop()
  const { rows } = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pgqueuer_log WHERE status = 'successful'")
  return { rate, cpu, own, logged: rows[0].n }
}

export async function localQueueSection(pool: pg.Pool, o: LocalQueueOptions): Promise<{ section: string; what: string; value: string; note: string }[]> {
  const out = []
  for (const c of o.concurrencies) {
    const decoupled: Sample[] = []
    const tied: Sample[] = []
    for (let r = 0; r < o.rounds; r++) {
      decoupled.push(await drainOnce(pool, o, o.batch, c))
      tied.push(await drainOnce(pool, o, c, c))
    }
    const m = (xs: Sample[], k: keyof Sample) => median(xs.map((s) => s[k]))
    const logged = [...decoupled, ...tied].map((s) => s.logged)
    out.push({
      section: 'j',
      what: `drain ${fmt(o.jobs)} no-op jobs at ${c} in flight: batch ${o.batch} (local queue) vs batch ${c} (tied)`,
      value: `${fmt(m(decoupled, 'rate'))} / ${fmt(m(tied, 'rate'))} jobs/s (${(m(decoupled, 'rate') / m(tied, 'rate')).toFixed(2)}x)`,
      note: `cpuMsPer1k ${m(decoupled, 'cpu').toFixed(0)} / ${m(tied, 'cpu').toFixed(0)} (${(m(decoupled, 'cpu') / m(tied, 'cpu')).toFixed(2)}x); worker + backends CPU ms per 1,000 jobs ${m(decoupled, 'own').toFixed(0)} / ${m(tied, 'own').toFixed(0)} (${(m(decoupled, 'own') / m(tied, 'own')).toFixed(2)}x); successful log rows per run ${Math.min(...logged)}..${Math.max(...logged)} (median of ${o.rounds} alternating rounds)`,
    })
  }
  return out
}
