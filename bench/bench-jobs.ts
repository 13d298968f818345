/**
 * The benchmark's own job: a no-op under an entrypoint only the benchmark registers. For the
 * latency run its payload carries t0 (CLOCK_MONOTONIC ms taken just before the enqueue call),
 * and the handler records now - t0 on entry.
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
