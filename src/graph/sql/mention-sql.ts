/** SQL on `mention` (which chunk names which entity, how often), on the caller's client. */
import type { Queryable } from '../../db/queryable.js'

/** Replace the chunk's mentions with these (entity id -> count); two names of one entity add up. */
export async function replaceMentions(db: Queryable, scopes: readonly string[], chunkId: string, counts: Map<string, number>): Promise<number> {
  await db.query('DELETE FROM mention WHERE chunk_id = $1 AND scopes = $2::uuid[]', [chunkId, scopes])
  if (counts.size === 0) return 0
  const ids = [...counts.keys()].sort()
  const res = await db.query(
    `INSERT INTO mention (entity_id, chunk_id, scopes, count)
     SELECT u.e, $2::uuid, $1::uuid[], u.c FROM unnest($3::uuid[], $4::int[]) AS u(e, c)`,
    [scopes, chunkId, ids, ids.map((id) => counts.get(id) ?? 1)],
  )
  return res.rowCount ?? 0
}
