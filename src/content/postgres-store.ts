/**
 * Originals in PostgreSQL (aizk_content, keyed by content id): bytes stored once however many
 * artifacts in however many scope sets point at them. Bytes go in only through
 * aizk_store_content, which computes their id in the database and answers the same whether they
 * were there before or not; the app role reads the bytes an artifact it can see refers to.
 */
import type { Queryable } from '../db/queryable.js'
import { PUT_CONTENT, READ_CONTENT } from './sql/postgres-store.js'

export async function putContent(db: Queryable, contentId: string, bytes: Buffer): Promise<void> {
  const { rows } = await db.query<{ id: string }>({ name: 'aizk_content_put', text: PUT_CONTENT, values: [bytes] })
  if (rows[0].id !== contentId) throw new Error(`content id mismatch: computed ${contentId}, the database computed ${rows[0].id}`)
}

export async function readContent(db: Queryable, contentId: string): Promise<Buffer | null> {
  const { rows } = await db.query<{ bytes: Buffer }>({
    name: 'aizk_content_read',
    text: READ_CONTENT,
    values: [contentId],
  })
  return rows[0]?.bytes ?? null
}
