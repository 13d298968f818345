/** ProfileProjectionJob (scoped, every minute): rebuild the set's dirty profiles (src/graph/profiles.ts). */
import { refreshDirtyProfiles } from '../../graph/profiles.js'
import { ScopedScheduledJob, type ScopedContext } from '../scheduled-job.js'

export class ProfileProjectionJob extends ScopedScheduledJob {
  static override defaultCron = '* * * * *'
  static override defaultEnabled = true

  async execute(scopes: readonly string[], ctx: ScopedContext): Promise<void> {
    await refreshDirtyProfiles(ctx.db, scopes, ctx.settings, ctx.signal)
  }
}
