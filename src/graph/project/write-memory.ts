/**
 * The library API for what the passes read, called inside the caller's User transaction so the
 * write and its follow-up work commit together:
 *
 *   await User.system(scopes, settings).transaction(pool, (db) => writeDocument(db, scopes, { title, body }, settings))
 *
 * A document is chunked and one projection job per chunk is enqueued in that transaction. A
 * session item is stored and one promotion pass of its set is enqueued for when the session
 * could first be idle (one per session: the dedupe key names it, and it never blocks the cron
 * tick's own key); a session still active then is promoted by a later cron tick.
 */
import { chunkMarkdown } from '../../chunking/index.js'
import type { Queryable } from '../../db/queryable.js'
import { UsageError } from '../../errors.js'
import { enqueueChunkProjections } from '../../ingest/projection.js'
import { enqueue } from '../../queue/enqueue.js'
import { JobPriority } from '../../queue/priority.js'
import { normalizeScopes } from '../../scope/scope-set.js'
import { insertDocument, insertDocumentChunks, insertSessionItem, type NewDocument } from './sql/document-sql.js'

export interface ChunkingSettings {
  chunkMaxChars: number
  chunkOverlapChars: number
}

export interface WrittenDocument {
  documentId: string
  chunks: number
  projections: number
}

function setOf(scopes: Iterable<string>): string[] {
  const set = normalizeScopes(scopes)
  if (set.length === 0) throw new UsageError('a memory write needs at least one scope', 'pass the scope set the caller writes as')
  return set
}

export async function writeDocument(db: Queryable, scopes: Iterable<string>, doc: NewDocument, settings: ChunkingSettings): Promise<WrittenDocument> {
  const set = setOf(scopes)
  if (!doc.body.trim()) throw new UsageError('a document needs a body', 'pass the text to remember')
  const documentId = await insertDocument(db, set, doc)
  const chunks = chunkMarkdown(doc.body, { maxChars: settings.chunkMaxChars, overlapChars: settings.chunkOverlapChars })
  const chunkIds = await insertDocumentChunks(db, set, documentId, chunks)
  const projections = await enqueueChunkProjections(db, set, chunkIds)
  return { documentId, chunks: chunkIds.length, projections }
}

export interface NewSessionItem {
  sessionId: string
  role: string
  content: string
  created?: Date
}

export const SESSION_PROMOTE_ENTRYPOINT = 'aizk_task_session_promote'

export async function writeSessionItem(
  db: Queryable,
  scopes: Iterable<string>,
  item: NewSessionItem,
  settings: { sessionIdleMinutes: number },
): Promise<{ sessionItemId: string; promotionJobId: string | null }> {
  const set = setOf(scopes)
  if (!item.sessionId.trim() || !item.content.trim()) throw new UsageError('a session item needs a session id and content')
  const sessionItemId = await insertSessionItem(db, set, item)
  const jobId = await enqueue(db, {
    entrypoint: SESSION_PROMOTE_ENTRYPOINT,
    priority: JobPriority.maintenance,
    dedupeKey: `session_promote:${set.join(',')}:session:${item.sessionId}`,
    executeAfter: Math.ceil(settings.sessionIdleMinutes * 60_000) + 1000,
    payload: { scopes: set },
  })
  return { sessionItemId, promotionJobId: jobId || null }
}
