/**
 * DoclingConversionJob (aizk_convert_artifact, priority 75, concurrency doclingConcurrency):
 * converts an original to Markdown and, in one transaction under the artifact's scopes, stores
 * it with its chunks and one projection job per chunk. Dedupe key: the content id.
 */
import { z } from 'zod'
import { CONVERT_ARTIFACT_ENTRYPOINT } from '../../ingest/entrypoints.js'
import { JobPriority } from '../../queue/priority.js'
import { lazyModule } from '../lazy-module.js'
import { type JobContext, QueueJob, type StatementDeadline } from '../queue-job.js'

// Loaded when a job first runs: the converters are heavy, and listing the inventory needs none.
export const convertModule = lazyModule(() => import('../../ingest/convert-artifact.js'))

export const artifactRefPayload = z.object({
  artifactId: z.string().uuid(),
  scopes: z.array(z.string().uuid()).min(1),
})

export type ArtifactRefPayload = z.infer<typeof artifactRefPayload>

export class DoclingConversionJob extends QueueJob<ArtifactRefPayload> {
  static override entrypoint = CONVERT_ARTIFACT_ENTRYPOINT
  static override payload = artifactRefPayload
  static override priority = JobPriority.artifact
  static override concurrencyLimit = 4
  /** Stores a whole document and its chunks in one transaction, as `aizk ingest` does (no round-trip deadline there either). */
  static override statementDeadlineSeconds: StatementDeadline = 'job-timeout'
  static override concurrencySetting = 'doclingConcurrency' as const

  async handle(payload: ArtifactRefPayload, ctx: JobContext): Promise<void> {
    const { convertArtifact } = await convertModule()
    await convertArtifact(ctx.pool, ctx.settings, payload, ctx.signal)
  }
}
