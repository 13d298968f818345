/** SQL on `session_item` for promotion, on the caller's client inside User.system(scopes). */
import type { Queryable } from '../../../db/queryable.js'

/** Sessions of exactly this set whose newest unpromoted item is at least `idleSeconds` old, oldest first. */
export async function idleSessions(db: Queryable, scopes: readonly string[], idleSeconds: number): Promise<string[]> {
  const { rows } = await db.query<{ session_id: string }>(
    `SELECT session_id FROM session_item
      WHERE scopes = $1::uuid[] AND promoted_at IS NULL AND session_id IS NOT NULL
      GROUP BY session_id
     HAVING max(created) <= now() - make_interval(secs => $2::float8)
      ORDER BY min(created), session_id`,
    [scopes, idleSeconds],
  )
  return rows.map((r) => r.session_id)
}

export interface SessionItemRow {
  id: string
  role: string | null
  content: string | null
  created: Date
}

/** The session's unpromoted items in order, locked so a concurrent pass cannot promote them too. */
export async function lockUnpromotedItems(db: Queryable, scopes: readonly string[], sessionId: string): Promise<SessionItemRow[]> {
  const { rows } = await db.query<SessionItemRow>(
    `SELECT id::text, role, content, created FROM session_item
      WHERE scopes = $1::uuid[] AND session_id = $2 AND promoted_at IS NULL
      ORDER BY created, id FOR UPDATE`,
    [scopes, sessionId],
  )
  return rows
}

export async function nextSessionPart(db: Queryable, scopes: readonly string[], sessionId: string): Promise<number> {
  const { rows } = await db.query<{ part: number }>(
    'SELECT coalesce(max(part), 0)::int + 1 AS part FROM document WHERE scopes = $1::uuid[] AND session_id = $2',
    [scopes, sessionId],
  )
  return rows[0].part
}

export async function markItemsPromoted(db: Queryable, itemIds: string[], documentId: string): Promise<void> {
  await db.query('UPDATE session_item SET promoted_at = now(), document_id = $2 WHERE id = ANY($1::uuid[])', [itemIds, documentId])
}
