/**
 * ProfileRefreshJob (scoped, Sundays 05:00): rebuild every profile of the set
 * (src/graph/maintain/refresh-profiles.ts), in batches that commit as they go.
 */
import { User } from '../../scope/user.js'
import type { JobContext } from '../queue-job.js'
import { type ScopedContext, ScopedScheduledJob } from '../scheduled-job.js'

export class ProfileRefreshJob extends ScopedScheduledJob {
  static override defaultCron = '0 5 * * 0'
  static override defaultEnabled = true

  override async handle(payload: { scopes: string[] }, ctx: JobContext): Promise<void> {
    const { refreshAllProfiles } = await import('../../graph/maintain/refresh-profiles.js')
    const refreshed = await refreshAllProfiles(ctx.pool, User.system(payload.scopes, ctx.settings), ctx.settings, ctx.signal)
    ctx.report?.(refreshed)
  }

  /** Never called: handle takes its own transactions. */
  async execute(_scopes: readonly string[], _ctx: ScopedContext): Promise<void> {}
}
