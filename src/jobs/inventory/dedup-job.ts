/** DedupJob (scoped, 03:30): merge the set's duplicate entities (src/graph/resolve/dedup.ts); never across sets. */
import { ScopedScheduledJob, type ScopedContext } from '../scheduled-job.js'

export class DedupJob extends ScopedScheduledJob {
  static override defaultCron = '30 3 * * *'
  static override defaultEnabled = true

  async execute(scopes: readonly string[], ctx: ScopedContext): Promise<void> {
    const { dedupEntities } = await import('../../graph/resolve/dedup.js')
    await dedupEntities(ctx.db, scopes, ctx.settings.dedupSimilarity)
  }
}
