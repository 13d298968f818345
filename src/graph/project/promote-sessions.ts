/**
 * SessionPromoteJob's body: every session of the set whose newest unpromoted item is older than
 * `sessionIdleMinutes` becomes one document (the next part of that session), chunked and
 * enqueued for projection like any document, its items marked promoted with it, all in the
 * pass's one transaction. Items are locked and only unpromoted ones taken, so a session is never
 * promoted twice; items that arrive later promote as the next part.
 */
import type { Queryable } from '../../db/queryable.js'
import { idleSessions, lockUnpromotedItems, markItemsPromoted, nextSessionPart } from './sql/session-sql.js'
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
  const result: PromotionResult = { sessions: 0, items: 0, chunks: 0 }
  for (const sessionId of await idleSessions(db, scopes, settings.sessionIdleMinutes * 60)) {
    const items = await lockUnpromotedItems(db, scopes, sessionId)
    if (items.length === 0) continue
    const part = await nextSessionPart(db, scopes, sessionId)
    const body = items.map((i) => `**${i.role ?? 'note'}** (${i.created.toISOString()}): ${i.content ?? ''}`).join('\n\n')
    const title = part === 1 ? `Session ${sessionId}` : `Session ${sessionId} (part ${part})`
    const doc = await writeDocument(db, scopes, { title, body, sessionId, part }, settings)
    await markItemsPromoted(
      db,
      items.map((i) => i.id),
      doc.documentId,
    )
    result.sessions++
    result.items += items.length
    result.chunks += doc.chunks
  }
  return result
}
