/**
 * ArtifactDispatchJob (scoped, every minute): originals a crashed hand-off left pending with no
 * live conversion job get their conversion enqueued (dedupe key the content id). Also what sends
 * the second of two scope sets' identical bytes once the first conversion has finished.
 */
import { artifactsToDispatch } from '../../ingest/sql/artifact.js'
import { type ScopedContext, ScopedScheduledJob } from '../scheduled-job.js'
import { DoclingConversionJob } from './docling-conversion-job.js'

/** Pending artifacts re-dispatched per tick and scope set: a backlog drains over a few minutes' ticks, no one needs to tune it. */
const DISPATCH_BATCH = 512

export class ArtifactDispatchJob extends ScopedScheduledJob {
  static override defaultCron = '* * * * *'
  static override defaultEnabled = true

  async execute(scopes: readonly string[], ctx: ScopedContext): Promise<void> {
    const pending = await artifactsToDispatch(ctx.db, scopes, DISPATCH_BATCH)
    if (pending.length === 0) return
    await DoclingConversionJob.enqueueMany(
      ctx.db,
      pending.map((a) => ({ payload: { artifactId: a.id, scopes: [...scopes] }, options: { dedupeKey: a.contentId } })),
    )
  }
}
