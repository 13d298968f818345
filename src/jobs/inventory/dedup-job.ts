/** DedupJob (scoped, 03:30): merge the set's duplicate entities (src/graph/dedup.ts); never across sets. */
import { dedupEntities } from '../../graph/dedup.js'
import { ScopedScheduledJob, type ScopedContext } from '../scheduled-job.js'

export class DedupJob extends ScopedScheduledJob {
  static override defaultCron = '30 3 * * *'
  static override defaultEnabled = true

  async execute(scopes: readonly string[], ctx: ScopedContext): Promise<void> {
    await dedupEntities(ctx.db, scopes, ctx.settings.dedupSimilarity)
  }
}
