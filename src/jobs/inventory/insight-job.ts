/** InsightJob (scoped, Sundays 07:00): derive the set's insights (src/graph/maintain/insights). */
import { ScopedScheduledJob, type ScopedContext } from '../scheduled-job.js'

export class InsightJob extends ScopedScheduledJob {
  static override defaultCron = '0 7 * * 0'
  static override defaultEnabled = true

  async execute(scopes: readonly string[], ctx: ScopedContext): Promise<void> {
    const { deriveInsights } = await import('../../graph/maintain/insights/derive-insights.js')
    ctx.report?.(await deriveInsights(ctx.db, scopes, ctx.settings))
  }
}
