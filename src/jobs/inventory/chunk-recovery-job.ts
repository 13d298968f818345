/**
 * ChunkRecoveryJob (system, every minute): requeues up to chunkRecoveryBatch (512) held chunk
 * projection jobs, skipping any that already burned chunkRecoveryMaxCycles (3) cycles; past
 * that, only an operator's `aizk requeue` sends them again.
 */
import { CHUNK_PROJECTION_ENTRYPOINT } from '../../ingest/projection.js'
import { requeueFailed } from '../../queue/requeue.js'
import { type ScheduledContext, SystemScheduledJob } from '../scheduled-job.js'

export class ChunkRecoveryJob extends SystemScheduledJob {
  static override defaultCron = '* * * * *'
  static override defaultEnabled = true

  async execute(ctx: ScheduledContext): Promise<void> {
    await requeueFailed(ctx.pool, {
      entrypoints: [CHUNK_PROJECTION_ENTRYPOINT],
      limit: ctx.settings.chunkRecoveryBatch,
      maxCycles: ctx.settings.chunkRecoveryMaxCycles,
    })
  }
}
