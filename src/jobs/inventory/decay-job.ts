/**
 * DecayJob (scoped, 03:00): halve claim weights every decayHalfLifeDays (src/graph/maintain/decay.ts).
 * Its batches commit one by one in their own short transactions under the same User, not in the
 * pass's transaction, so no lock is held across the whole set.
 */
import { type ScopedContext, ScopedScheduledJob } from '../scheduled-job.js'

export class DecayJob extends ScopedScheduledJob {
  static override defaultCron = '0 3 * * *'
  static override defaultEnabled = true

  async execute(_scopes: readonly string[], ctx: ScopedContext): Promise<void> {
    const { decayClaims } = await import('../../graph/maintain/decay.js')
    await decayClaims(ctx.pool, ctx.user, {
      halfLifeDays: ctx.settings.decayHalfLifeDays,
      floor: ctx.settings.decayFloor,
      batch: ctx.settings.decayBatch,
      signal: ctx.signal,
    })
  }
}
