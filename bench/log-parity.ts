/**
 * Section (g) of `npm run bench`: what AIZK_QUEUE_LOG_PARITY costs (docs/pgqueuer-interop.md).
 * A/B in alternating rounds on one database, so drift on a noisy machine hits both sides: per
 * round, parity off then on, each (1) enqueues jobs one per call with 16 in flight, (2) enqueues
 * the backlog 1,000 a call, (3) drains it with one worker process. Medians per side and the
 * on/off ratio are printed; the log rows per job show what parity writes (1 vs 3).
 */
import type pg from 'pg'
import { enqueue, enqueueMany } from '../src/queue/enqueue.js'
import { BENCH_ENTRYPOINT, monotonicMs } from './bench-jobs.js'
import { forkBenchWorker } from './worker-process.js'

export interface ParityRow {
  section: string
  what: string
  value: string
  note?: string
}

export interface Sample {
  single: number
  bulk: number
  drain: number
  logPerJob: number
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
export const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

/** An empty queue, vacuumed and checkpointed: each side of an A/B starts alike. */
export async function fresh(pool: pg.Pool): Promise<void> {
  await pool.query('TRUNCATE pgqueuer, pgqueuer_log, aizk_queue_count, aizk_queue_count_delta, aizk_throughput')
  await pool.query('VACUUM ANALYZE')
  await pool.query('CHECKPOINT')
}

export interface SideOptions {
  url: string
  batch: number
  concurrency: number
  jobs: number
  inflight: number
}

function oneSide(pool: pg.Pool, o: SideOptions, parity: boolean): Promise<Sample> {
  return abSide(pool, o, { logQueued: parity, workerEnv: { AIZK_QUEUE_LOG_PARITY: String(parity) } })
}

/**
 * One side of an A/B on a fresh queue: enqueue one per call (16 in flight), enqueue the backlog
 * 1,000 a call, drain it with one worker process started with `workerEnv`.
 */
export async function abSide(pool: pg.Pool, o: SideOptions, side: { logQueued?: boolean; workerEnv: Record<string, string> }): Promise<Sample> {
  const parity = side.logQueued
  await fresh(pool)
  const singles = Math.max(1000, Math.floor(o.jobs / 4))
  let next = 0
  const t0 = monotonicMs()
  await Promise.all(
    Array.from({ length: o.inflight }, async () => {
      while (next < singles) {
        const i = next++
        await enqueue(pool, { entrypoint: BENCH_ENTRYPOINT, payload: { i } }, { logQueued: parity })
      }
    }),
  )
  const single = singles / ((monotonicMs() - t0) / 1000)
  await fresh(pool)
  const t1 = monotonicMs()
  for (let b = 0; b < o.jobs; b += 1000) {
    const items = Array.from({ length: Math.min(1000, o.jobs - b) }, (_, k) => ({ entrypoint: BENCH_ENTRYPOINT, payload: { i: b + k } }))
    await enqueueMany(pool, items, { logQueued: parity })
  }
  const bulk = o.jobs / ((monotonicMs() - t1) / 1000)
  await pool.query('VACUUM ANALYZE')
  const w = await forkBenchWorker({ url: o.url, batch: o.batch, concurrency: o.concurrency, env: side.workerEnv })
  const { tStart } = await w.request<{ tStart: number }>('start', 'started')
  for (;;) {
    const { rows } = await pool.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM pgqueuer) AS any')
    if (!rows[0].any) break
    await sleep(20)
  }
  const drain = o.jobs / ((monotonicMs() - tStart) / 1000)
  await w.stop()
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM pgqueuer_log')
  return { single, bulk, drain, logPerJob: rows[0].n / o.jobs }
}

export async function logParitySection(
  pool: pg.Pool,
  o: { url: string; batch: number; concurrency: number; jobs: number; inflight: number; rounds: number },
): Promise<ParityRow[]> {
  const off: Sample[] = []
  const on: Sample[] = []
  for (let r = 0; r < o.rounds; r++) {
    off.push(await oneSide(pool, o, false))
    on.push(await oneSide(pool, o, true))
  }
  const rows: ParityRow[] = []
  const add = (what: string, key: keyof Sample) => {
    const a = median(off.map((s) => s[key]))
    const b = median(on.map((s) => s[key]))
    rows.push({
      section: 'g',
      what,
      value: `off ${fmt(a)} / on ${fmt(b)} jobs/s`,
      note: `on/off ${(b / a).toFixed(2)} (median of ${o.rounds} alternating rounds)`,
    })
  }
  add('log parity: enqueue, 1 per call, 16 in flight', 'single')
  add('log parity: enqueue, 1,000 per call', 'bulk')
  add(`log parity: drain ${fmt(o.jobs)} no-op jobs, 1 worker`, 'drain')
  rows.push({ section: 'g', what: 'log parity: log rows per drained job', value: `off ${off[0].logPerJob.toFixed(1)} / on ${on[0].logPerJob.toFixed(1)}` })
  return rows
}
