/**
 * (j) `npm run bench` section: the drain at a handler concurrency below the batch size (issue 15
 * targets 1 and 6). At 16 and at 64 in flight (BENCH_LOCAL_CONCURRENCY, "16 64"), one worker
 * drains at its defaults (picks of 64, growing to 512 while full, into its local queue) and,
 * alternating on one database, with each pick tied to the free slots (batch = concurrency, no
 * local queue: the worker before the local queue). Prints
 * jobs/s and cpuMsPer1k of each, the worker + backends CPU per 1,000 jobs (the figure that holds
 * while other work shares the machine), and batch-64 / tied as ratios (medians of BENCH_ROUNDS).
 */
import type pg from 'pg'
import { measureDrain, median, type Sample } from './drain-ab.js'

export interface LocalQueueOptions {
  url: string
  jobs: number
  rounds: number
  batch: number
  concurrencies: number[]
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

export async function localQueueSection(pool: pg.Pool, o: LocalQueueOptions): Promise<{ section: string; what: string; value: string; note: string }[]> {
  const out = []
  for (const c of o.concurrencies) {
    const decoupled: Sample[] = []
    const tied: Sample[] = []
    for (let r = 0; r < o.rounds; r++) {
      decoupled.push(await measureDrain(pool, { ...o, concurrency: c }))
      tied.push(await measureDrain(pool, { ...o, batch: c, concurrency: c, localQueueSize: 0 }))
    }
    const m = (xs: Sample[], k: keyof Sample) => median(xs.map((s) => s[k]))
    const logged = [...decoupled, ...tied].map((s) => s.logged)
    out.push({
      section: 'j',
      what: `drain ${fmt(o.jobs)} no-op jobs at ${c} in flight: batch ${o.batch} (growing picks, local queue) vs batch ${c}, no local queue (tied)`,
      value: `${fmt(m(decoupled, 'rate'))} / ${fmt(m(tied, 'rate'))} jobs/s (${(m(decoupled, 'rate') / m(tied, 'rate')).toFixed(2)}x)`,
      note: `cpuMsPer1k ${m(decoupled, 'cpu').toFixed(0)} / ${m(tied, 'cpu').toFixed(0)} (${(m(decoupled, 'cpu') / m(tied, 'cpu')).toFixed(2)}x); worker + backends CPU ms per 1,000 jobs ${m(decoupled, 'own').toFixed(0)} / ${m(tied, 'own').toFixed(0)} (${(m(decoupled, 'own') / m(tied, 'own')).toFixed(2)}x); successful log rows per run ${Math.min(...logged)}..${Math.max(...logged)} (median of ${o.rounds} alternating rounds)`,
    })
  }
  return out
}
