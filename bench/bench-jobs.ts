/**
 * The benchmark's own job: a no-op under an entrypoint only the benchmark registers. For the
 * latency run its payload carries t0 (CLOCK_MONOTONIC ms taken just before the enqueue call),
 * and the handler records now - t0 on entry. Spread runs (section h) bind the same no-op under
 * more entrypoints: BENCH_SPREAD_ENTRYPOINTS in the worker's environment names how many.
 */
import { z } from 'zod'
import { QueueJob } from '../src/jobs/queue-job.js'

export const BENCH_ENTRYPOINT = 'aizk_bench_noop'
export const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6

export const benchStats = { handled: 0, latencies: [] as number[] }

export class BenchNoopJob extends QueueJob<{ i?: number; t0?: number; warm?: boolean }> {
  static override entrypoint = BENCH_ENTRYPOINT
  static override payload = z.object({ i: z.number().optional(), t0: z.number().optional(), warm: z.boolean().optional() })
  async handle(payload: { t0?: number; warm?: boolean }): Promise<void> {
    if (payload.t0 !== undefined && !payload.warm) benchStats.latencies.push(monotonicMs() - payload.t0)
    benchStats.handled++
  }
}

/** The n entrypoints of a spread run: the bench entrypoint first, then aizk_bench_noop_02 ... */
export function spreadEntrypoints(n: number): string[] {
  return Array.from({ length: Math.max(1, n) }, (_, k) => (k === 0 ? BENCH_ENTRYPOINT : `${BENCH_ENTRYPOINT}_${String(k + 1).padStart(2, '0')}`))
}

/** The no-op job under each of those entrypoints. */
export function spreadJobs(n: number): (typeof BenchNoopJob)[] {
  return spreadEntrypoints(n).map((ep) =>
    ep === BENCH_ENTRYPOINT
      ? BenchNoopJob
      : class extends BenchNoopJob {
          static override entrypoint = ep
        },
  )
}
