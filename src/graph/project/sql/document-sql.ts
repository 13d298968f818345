/** SQL on `document` and its chunks, on the caller's client inside User.system(scopes). */
import type { Chunk } from '../../../chunking/index.js'
import type { Queryable } from '../../../db/queryable.js'

export interface NewDocument {
  title: string | null
  body: string
  sessionId?: string | null
  part?: number | null
}

export async function insertDocument(db: Queryable, scopes: readonly string[], doc: NewDocument): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO document (scopes, title, body, session_id, part) VALUES ($1::uuid[], $2, $3, $4, $5) RETURNING id::text`,
    [scopes, doc.title, doc.body, doc.sessionId ?? null, doc.part ?? null],
  )
  return rows[0].id
}

/** Store a document's chunks (source 'document'); returns their ids in order. */
export async function insertDocumentChunks(db: Queryable, scopes: readonly string[], documentId: string, chunks: Chunk[]): Promise<string[]> {
  if (chunks.length === 0) return []
  const { rows } = await db.query<{ id: string; ordinal: number }>(
    `INSERT INTO chunk (scopes, document_id, source, ordinal, text, heading, char_start, char_end)
     SELECT $1::uuid[], $2::uuid, 'document', o, t, h, cs, ce
       FROM unnest($3::int[], $4::text[], $5::text[], $6::int[], $7::int[]) AS u(o, t, h, cs, ce)
     RETURNING id::text, ordinal`,
    [
      scopes,
      documentId,
      chunks.map((c) => c.ordinal),
      chunks.map((c) => c.text),
      chunks.map((c) => c.heading),
      chunks.map((c) => c.charStart),
      chunks.map((c) => c.charEnd),
    ],
  )
  return rows.sort((a, b) => a.ordinal - b.ordinal).map((r) => r.id)
}

export async function insertSessionItem(
  db: Queryable,
  scopes: readonly string[],
  item: { sessionId: string; role: string; content: string; created?: Date },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO session_item (scopes, session_id, role, content, created) VALUES ($1::uuid[], $2, $3, $4, coalesce($5, now())) RETURNING id::text`,
    [scopes, item.sessionId, item.role, item.content, item.created ?? null],
  )
  return rows[0].id
}
