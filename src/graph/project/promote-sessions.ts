/**
 * SessionPromoteJob's body: every session of the set whose newest unpromoted item is older than
 * `sessionIdleMinutes` becomes one document (the next part of that session), chunked and
 * enqueued for projection like any document, its items marked promoted with it, all in the
 * pass's one transaction. Items are locked and only unpromoted ones taken, so a session is never
 * promoted twice; items that arrive later promote as the next part.
 */
import type { Queryable } from '../../db/queryable.js'
import type { ChunkingSettings } from './write-memory.js'
import { writeDocument } from './write-memory.js'

export interface PromotionResult {
  sessions: number
  items: number
  chunks: number
}

export async function promoteSessions(
  db: Queryable,
  scopes: readonly string[],
  settings: ChunkingSettings & { sessionIdleMinutes: number },
): Promise<PromotionResult> {
  const idle = await db.query<{ session_id: string }>(
    `SELECT session_id FROM session_item
      WHERE scopes = $1::uuid[] AND promoted_at IS NULL AND session_id IS NOT NULL
      GROUP BY session_id
     HAVING max(created) <= now() - make_interval(secs => $2::float8)
      ORDER BY min(created), session_id`,
    [scopes, settings.sessionIdleMinutes * 60],
  )
  const result: PromotionResult = { sessions: 0, items: 0, chunks: 0 }
  for (const { session_id: sessionId } of idle.rows) {
    const items = await db.query<{ id: string; role: string | null; content: string | null; created: Date }>(
      `SELECT id::text, role, content, created FROM session_item
        WHERE scopes = $1::uuid[] AND session_id = $2 AND promoted_at IS NULL
        ORDER BY created, id FOR UPDATE`,
      [scopes, sessionId],
    )
    if (items.rows.length === 0) continue
    const { rows } = await db.query<{ part: number }>(
      'SELECT coalesce(max(part), 0)::int + 1 AS part FROM document WHERE scopes = $1::uuid[] AND session_id = $2',
      [scopes, sessionId],
    )
    const part = rows[0].part
    const body = items.rows.map((i) => `**${i.role ?? 'note'}** (${i.created.toISOString()}): ${i.content ?? ''}`).join('\n\n')
    const title = part === 1 ? `Session ${sessionId}` : `Session ${sessionId} (part ${part})`
    const doc = await writeDocument(db, scopes, { title, body, sessionId, part }, settings)
    await db.query('UPDATE session_item SET promoted_at = now(), document_id = $2 WHERE id = ANY($1::uuid[])', [
      items.rows.map((i) => i.id),
      doc.documentId,
    ])
    result.sessions++
    result.items += items.rows.length
    result.chunks += doc.chunks
  }
  return result
}
