/**
 * Projection jobs for chunks: `aizk_build_graph_chunk`, priority 50, dedupe key the chunk id,
 * payload {chunkId, scopes}, enqueued in the transaction that writes the chunks (chunking, the
 * library's memory writes) and by the chunk dispatch pass; ChunkProjectionJob runs them
 * (docs/memory-graph.md#chunkprojectionjob).
 */
import type { Queryable } from '../db/queryable.js'
import { enqueueMany } from '../queue/enqueue.js'
import { JobPriority } from '../queue/priority.js'

export const CHUNK_PROJECTION_ENTRYPOINT = 'aizk_build_graph_chunk'

/** Enqueue one projection per chunk in the caller's transaction; returns how many were new. */
export async function enqueueChunkProjections(db: Queryable, scopes: readonly string[], chunkIds: string[]): Promise<number> {
  if (chunkIds.length === 0) return 0
  const ids = await enqueueMany(
    db,
    chunkIds.map((chunkId) => ({
      entrypoint: CHUNK_PROJECTION_ENTRYPOINT,
      priority: JobPriority.chunk,
      dedupeKey: chunkId,
      payload: { chunkId, scopes: [...scopes] },
    })),
  )
  return ids.filter(Boolean).length
}
