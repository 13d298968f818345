/** SessionPromoteJob (scoped, every 15 minutes): idle sessions become documents (src/graph/project/promote-sessions.ts). */
import { ScopedScheduledJob, type ScopedContext } from '../scheduled-job.js'

export class SessionPromoteJob extends ScopedScheduledJob {
  static override defaultCron = '*/15 * * * *'
  static override defaultEnabled = true

  async execute(scopes: readonly string[], ctx: ScopedContext): Promise<void> {
    const { promoteSessions } = await import('../../graph/project/promote-sessions.js')
    await promoteSessions(ctx.db, scopes, ctx.settings)
  }
}
