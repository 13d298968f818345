/**
 * ProfileProjectionJob (scoped, every minute): rebuild the set's dirty profiles
 * (src/graph/maintain/profiles.ts). It opens its own short transactions, one to take a batch and
 * one to store it, so no transaction is open while a model writes summaries.
 */
import { User } from '../../scope/user.js'
import type { JobContext } from '../queue-job.js'
import { type ScopedContext, ScopedScheduledJob } from '../scheduled-job.js'

export class ProfileProjectionJob extends ScopedScheduledJob {
  static override defaultCron = '* * * * *'
  static override defaultEnabled = true

  override async handle(payload: { scopes: string[] }, ctx: JobContext): Promise<void> {
    const { refreshDirtyProfiles } = await import('../../graph/maintain/profiles.js')
    const rebuilt = await refreshDirtyProfiles(ctx.pool, User.system(payload.scopes, ctx.settings), ctx.settings, ctx.signal)
    ctx.report?.({ rebuilt })
  }

  /** Never called: handle takes its own transactions. */
  async execute(_scopes: readonly string[], _ctx: ScopedContext): Promise<void> {}
}
