/** ProfileRefreshJob (scoped, Sundays 05:00): rebuild every profile of the set (src/graph/maintain/refresh-profiles.ts). */
import { ScopedScheduledJob, type ScopedContext } from '../scheduled-job.js'

export class ProfileRefreshJob extends ScopedScheduledJob {
  static override defaultCron = '0 5 * * 0'
  static override defaultEnabled = true

  async execute(scopes: readonly string[], ctx: ScopedContext): Promise<void> {
    const { refreshAllProfiles } = await import('../../graph/maintain/refresh-profiles.js')
    ctx.report?.(await refreshAllProfiles(ctx.db, scopes, ctx.settings, ctx.signal))
  }
}
