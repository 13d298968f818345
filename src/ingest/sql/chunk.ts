/** SQL on the chunk table, on the caller's client (inside User.system(scopes)). */

import type { Chunk } from '../../chunking/index.js'
import type { Queryable } from '../../db/queryable.js'
import { dropQueuedJobs } from '../../queue/remove-jobs.js'
import { CHUNK_PROJECTION_ENTRYPOINT } from '../projection.js'

export interface StoredChunk {
  id: string
  ordinal: number
}

function vectorLiteral(v: number[] | null): string | null {
  return v ? `{${v.map((x) => (Number.isFinite(x) ? String(x) : '0')).join(',')}}` : null
}

/**
 * Replace an artifact's chunks with these, in the caller's transaction. The old chunks' queued
 * projection jobs go with them (a projection of a chunk that no longer exists is no work).
 */
export async function replaceChunks(
  db: Queryable,
  artifactId: string,
  scopes: readonly string[],
  chunks: Chunk[],
  vectors: (number[] | null)[],
): Promise<StoredChunk[]> {
  const old = await db.query<{ id: string }>('DELETE FROM chunk WHERE artifact_id = $1 RETURNING id::text AS id', [artifactId])
  await dropQueuedJobs(
    db,
    CHUNK_PROJECTION_ENTRYPOINT,
    old.rows.map((r) => r.id),
  )
  if (chunks.length === 0) return []
  const { rows } = await db.query<{ id: string; ordinal: number }>(
    `INSERT INTO chunk (scopes, artifact_id, source, ordinal, text, heading, char_start, char_end, embedding)
     SELECT $1::uuid[], $2, 'artifact', o, t, h, cs, ce, e::real[]
       FROM unnest($3::int[], $4::text[], $5::text[], $6::int[], $7::int[], $8::text[]) AS u(o, t, h, cs, ce, e)
     RETURNING id::text AS id, ordinal`,
    [
      scopes,
      artifactId,
      chunks.map((c) => c.ordinal),
      chunks.map((c) => c.text),
      chunks.map((c) => c.heading),
      chunks.map((c) => c.charStart),
      chunks.map((c) => c.charEnd),
      chunks.map((_, i) => vectorLiteral(vectors[i] ?? null)),
    ],
  )
  return rows.sort((a, b) => a.ordinal - b.ordinal)
}

/** Chunks of exactly this scope set awaiting projection with no live projection job. */
export async function chunksToDispatch(db: Queryable, scopes: readonly string[], limit: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT c.id::text AS id FROM chunk c
      WHERE c.scopes = $1::uuid[] AND c.projection_status = 'pending'
        AND NOT aizk_job_key_live(c.id::text)
      ORDER BY c.created, c.id
      LIMIT $2`,
    [scopes, limit],
  )
  return rows.map((r) => r.id)
}
