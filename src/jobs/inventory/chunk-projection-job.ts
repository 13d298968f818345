/**
 * ChunkProjectionJob (aizk_build_graph_chunk, priority 50, concurrency graphBuildConcurrency 4):
 * projects one chunk into its scope set's graph (src/graph/project/project-chunk.ts). Payload
 * {chunkId, scopes}, dedupe key the chunk id, as ingest and the dispatch pass enqueue it.
 */
import { z } from 'zod'
import { CHUNK_PROJECTION_ENTRYPOINT } from '../../ingest/projection.js'
import { JobPriority } from '../../queue/priority.js'
import { normalizeScopes } from '../../scope/scope-set.js'
import { lazyModule } from '../lazy-module.js'
import { type JobContext, QueueJob, type StatementDeadline } from '../queue-job.js'

const projection = lazyModule(async () => {
  const [{ extractorFor }, { projectChunk }] = await Promise.all([
    import('../../graph/extract/choose-extractor.js'),
    import('../../graph/project/project-chunk.js'),
  ])
  return { extractorFor, projectChunk }
})

export const chunkRefPayload = z.object({
  chunkId: z.string().uuid(),
  scopes: z
    .array(z.string().uuid())
    .min(1)
    .transform((s) => normalizeScopes(s)),
})

export type ChunkRefPayload = z.infer<typeof chunkRefPayload>

export class ChunkProjectionJob extends QueueJob<ChunkRefPayload> {
  static override entrypoint = CHUNK_PROJECTION_ENTRYPOINT
  static override payload = chunkRefPayload
  static override priority = JobPriority.chunk
  static override concurrencyLimit = 4
  /** Writes a chunk's entities and edges as `aizk graph` builds do (no round-trip deadline there either). */
  static override statementDeadlineSeconds: StatementDeadline = 'job-timeout'
  static override concurrencySetting = 'graphBuildConcurrency' as const

  async handle(payload: ChunkRefPayload, ctx: JobContext): Promise<void> {
    const { extractorFor, projectChunk } = await projection()
    await projectChunk(ctx.pool, ctx.settings, payload, extractorFor(ctx.settings), ctx.signal)
  }
}
