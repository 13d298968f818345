// The jobs of `npm run chaos` (bench/chaos.ts), loaded by its `aizk worker` processes through
// AIZK_WORKER_JOB_MODULES. Each run writes one row to chaos_runs before it sleeps, so a run cut
// short by a SIGKILL or a server restart still shows, and a job run twice shows as two rows.
import { z } from 'zod'
import { jobRegistry, QueueJob } from '../dist/index.js'

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => {
      clearTimeout(t)
      resolve()
    })
  })

async function recordAndSleep(payload, ctx) {
  await ctx.pool.query('INSERT INTO chaos_runs (job_id, entrypoint, attempts, pid) VALUES ($1, $2, $3, $4)', [
    ctx.jobId,
    ctx.entrypoint,
    ctx.attempts,
    process.pid,
  ])
  await sleep(payload.ms, ctx.signal)
}

export class ChaosRecordJob extends QueueJob {
  static entrypoint = 'chaos_record'
  static payload = z.object({ ms: z.number().int().min(0) })
  async handle(payload, ctx) {
    await recordAndSleep(payload, ctx)
  }
}

/** At most 2 at once across every worker: the run samples its picked rows against this. */
export class ChaosLimitedJob extends QueueJob {
  static entrypoint = 'chaos_limited'
  static payload = z.object({ ms: z.number().int().min(0) })
  static concurrencyLimit = 2
  async handle(payload, ctx) {
    await recordAndSleep(payload, ctx)
  }
}

jobRegistry.registerModule({ ChaosRecordJob, ChaosLimitedJob })
