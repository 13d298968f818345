/** SessionPromoteJob (scoped, every 15 minutes): idle sessions become documents (src/graph/project/promote-sessions.ts). */
import { SESSION_PROMOTE_ENTRYPOINT } from '../../graph/project/write-memory.js'
import { type ScopedContext, ScopedScheduledJob } from '../scheduled-job.js'

export class SessionPromoteJob extends ScopedScheduledJob {
  static override defaultCron = '*/15 * * * *'
  static override defaultEnabled = true

  /**
   * Named where it is enqueued (writeSessionItem schedules a promotion per session), not derived
   * from this class's name: renaming the class must not strand the jobs already queued under it.
   */
  static override get entrypoint(): string {
    return SESSION_PROMOTE_ENTRYPOINT
  }

  async execute(scopes: readonly string[], ctx: ScopedContext): Promise<void> {
    const { promoteSessions } = await import('../../graph/project/promote-sessions.js')
    await promoteSessions(ctx.db, scopes, ctx.settings)
  }
}
