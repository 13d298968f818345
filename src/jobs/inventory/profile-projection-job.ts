/** ProfileProjectionJob (scoped, every minute): rebuild the set's dirty profiles (src/graph/maintain/profiles.ts). */
import { ScopedScheduledJob, type ScopedContext } from '../scheduled-job.js'

export class ProfileProjectionJob extends ScopedScheduledJob {
  static override defaultCron = '* * * * *'
  static override defaultEnabled = true

  async execute(scopes: readonly string[], ctx: ScopedContext): Promise<void> {
    const { refreshDirtyProfiles } = await import('../../graph/maintain/profiles.js')
    await refreshDirtyProfiles(ctx.db, scopes, ctx.settings, ctx.signal)
  }
}
