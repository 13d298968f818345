/** DedupJob (scoped, 03:30): merge the set's duplicate entities (src/graph/resolve/dedup.ts); never across sets. */
import { type ScopedContext, ScopedScheduledJob } from '../scheduled-job.js'

export class DedupJob extends ScopedScheduledJob {
  static override defaultCron = '30 3 * * *'
  static override defaultEnabled = true

  async execute(scopes: readonly string[], ctx: ScopedContext): Promise<void> {
    const { dedupEntities } = await import('../../graph/resolve/dedup.js')
    const { embedChunkTexts } = await import('../../embedding/embed-chunks.js')
    const { settings } = ctx
    const embed = settings.embeddingsUrl ? async (texts: string[]) => (await embedChunkTexts(texts, settings, ctx.signal)) as number[][] : undefined
    const result = await dedupEntities(ctx.db, scopes, { similarity: settings.dedupSimilarity, embed, embeddingSimilarity: settings.dedupEmbeddingSimilarity })
    ctx.report?.({ ...result })
  }
}
