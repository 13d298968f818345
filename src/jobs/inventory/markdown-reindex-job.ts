/**
 * MarkdownReindexJob (aizk_reindex_artifact, priority 75, a limit of its own set to
 * doclingConcurrency): replays chunking and embedding from the stored Markdown without
 * converting again, replacing the artifact's chunks atomically and enqueueing their projection.
 */
import type { Queryable } from '../../db/queryable.js'
import { JobPriority } from '../../queue/priority.js'
import { normalizeScopes } from '../../scope/scope-set.js'
import { type JobContext, QueueJob, type StatementDeadline } from '../queue-job.js'
import { type ArtifactRefPayload, artifactRefPayload, convertModule } from './docling-conversion-job.js'

export class MarkdownReindexJob extends QueueJob<ArtifactRefPayload> {
  static override entrypoint = 'aizk_reindex_artifact'
  static override payload = artifactRefPayload
  static override priority = JobPriority.artifact
  static override concurrencyLimit = 4
  /** Stores a whole document and its chunks in one transaction, as `aizk ingest` does (no round-trip deadline there either). */
  static override statementDeadlineSeconds: StatementDeadline = 'job-timeout'
  static override concurrencySetting = 'doclingConcurrency' as const

  /** Enqueue a reindex of one artifact (dedupe key `reindex:<artifact id>`); false when one is live. */
  static async enqueueFor(db: Queryable, artifactId: string, scopes: readonly string[]): Promise<string | false> {
    return MarkdownReindexJob.enqueue(db, { artifactId, scopes: normalizeScopes(scopes) }, { dedupeKey: `reindex:${artifactId}` })
  }

  async handle(payload: ArtifactRefPayload, ctx: JobContext): Promise<void> {
    const { reindexArtifact } = await convertModule()
    await reindexArtifact(ctx.pool, ctx.settings, payload, ctx.signal)
  }
}
