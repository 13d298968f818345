/**
 * CleanupJob (system, 01:00 daily): trims queue history past cleanupLogRetentionDays (7) in
 * batches of cleanupLogDeleteBatch (10,000), then VACUUM (ANALYZE) of the queue's tables.
 */
import { pruneLog } from '../../queue/prune.js'
import { type ScheduledContext, SystemScheduledJob } from '../scheduled-job.js'

export class CleanupJob extends SystemScheduledJob {
  static override defaultCron = '0 1 * * *'
  static override defaultEnabled = true

  async execute(ctx: ScheduledContext): Promise<void> {
    await pruneLog(ctx.pool, {
      retentionDays: ctx.settings.cleanupLogRetentionDays,
      batch: ctx.settings.cleanupLogDeleteBatch,
      vacuum: false,
      signal: ctx.signal,
    })
    // VACUUM cannot run in a transaction: a pool query runs on its own, in autocommit.
    await ctx.pool.query('VACUUM (ANALYZE) pgqueuer_log, pgqueuer')
  }
}
