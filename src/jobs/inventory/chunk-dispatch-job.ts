/**
 * ChunkDispatchJob (scoped, every minute): enqueuePending, up to chunkDispatchBatch (512) chunks
 * a tick. The dedupe key (the chunk id) makes sweeping every pending chunk each minute safe:
 * a chunk with a live projection job is skipped in the SQL and refused by the index.
 */
import type { Queryable } from '../../db/queryable.js'
import { enqueueChunkProjections } from '../../ingest/projection.js'
import { chunksToDispatch } from '../../ingest/sql/chunk.js'
import { type ScopedContext, ScopedScheduledJob } from '../scheduled-job.js'

/** Enqueue projection for pending chunks of exactly this scope set; returns how many were new. */
export async function enqueuePending(db: Queryable, scopes: readonly string[], limit: number): Promise<number> {
  const ids = await chunksToDispatch(db, scopes, limit)
  return enqueueChunkProjections(db, scopes, ids)
}

export class ChunkDispatchJob extends ScopedScheduledJob {
  static override defaultCron = '* * * * *'
  static override defaultEnabled = true

  async execute(scopes: readonly string[], ctx: ScopedContext): Promise<void> {
    await enqueuePending(ctx.db, scopes, ctx.settings.chunkDispatchBatch)
  }
}
