/** SQL of the RAPTOR pass, on the caller's client inside User.system(scopes). */
import type { Queryable } from '../../../db/queryable.js'

export interface EmbeddedChunk {
  id: string
  text: string
  embedding: number[]
}

/** The set's own chunks that carry a vector, in a stable order. */
export async function embeddedChunks(db: Queryable, scopes: readonly string[]): Promise<EmbeddedChunk[]> {
  const { rows } = await db.query<{ id: string; text: string; embedding: number[] }>(
    `SELECT id::text, text, embedding FROM chunk
      WHERE scopes = $1::uuid[] AND embedding IS NOT NULL AND cardinality(embedding) > 0
      ORDER BY created, id`,
    [scopes],
  )
  return rows
}

export interface NewRaptorNode {
  id: string
  level: number
  summary: string
  embedding: number[]
  childChunkIds: string[]
  childNodeIds: string[]
}

/** Drop the set's tree and write this one: the caller's one transaction makes it atomic. */
export async function replaceRaptorNodes(db: Queryable, scopes: readonly string[], nodes: NewRaptorNode[]): Promise<void> {
  await db.query('DELETE FROM raptor_node WHERE scopes = $1::uuid[]', [scopes])
  for (let i = 0; i < nodes.length; i += 500) {
    const slice = nodes.slice(i, i + 500)
    await db.query(
      `INSERT INTO raptor_node (id, scopes, level, summary, embedding, child_chunk_ids, child_node_ids)
       SELECT u.id, $1::uuid[], u.level, u.summary, u.embedding, u.child_chunk_ids, u.child_node_ids
         FROM jsonb_to_recordset($2::jsonb) AS u(id uuid, level int, summary text, embedding real[], child_chunk_ids uuid[], child_node_ids uuid[])`,
      [
        scopes,
        JSON.stringify(
          slice.map((n) => ({
            id: n.id,
            level: n.level,
            summary: n.summary,
            embedding: n.embedding,
            child_chunk_ids: n.childChunkIds,
            child_node_ids: n.childNodeIds,
          })),
        ),
      ],
    )
  }
}
