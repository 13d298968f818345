/** SessionPromoteJob (scoped, every 15 minutes): idle sessions become documents (src/graph/promote-sessions.ts). */
import { promoteSessions } from '../../graph/promote-sessions.js'
import { ScopedScheduledJob, type ScopedContext } from '../scheduled-job.js'

export class SessionPromoteJob extends ScopedScheduledJob {
  static override defaultCron = '*/15 * * * *'
  static override defaultEnabled = true

  async execute(scopes: readonly string[], ctx: ScopedContext): Promise<void> {
    await promoteSessions(ctx.db, scopes, ctx.settings)
  }
}
