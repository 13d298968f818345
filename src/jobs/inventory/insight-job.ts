/** InsightJob (scoped, Sundays 07:00): derive the set's insights (src/graph/maintain/insights). */
import { type ScopedContext, ScopedScheduledJob } from '../scheduled-job.js'

export class InsightJob extends ScopedScheduledJob {
  static override defaultCron = '0 7 * * 0'
  static override defaultEnabled = true

  async execute(scopes: readonly string[], ctx: ScopedContext): Promise<void> {
    const { deriveInsights } = await import('../../graph/maintain/insights/derive-insights.js')
    // Derived first: `report?.(await ...)` would skip the work itself where no one listens.
    const derived = await deriveInsights(ctx.db, scopes, ctx.settings)
    ctx.report?.(derived)
  }
}
