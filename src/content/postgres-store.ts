/**
 * Originals in PostgreSQL (aizk_content, keyed by scope set and content id): bytes stored once
 * per set however many of its artifacts point at them. Bytes go in only through
 * aizk_store_content, which computes their id in the database and stores them as the write
 * set's own, so nothing another set stored changes what it does; they are read back by
 * (id, set) through aizk_read_content, within the caller's read set.
 */
import type { Queryable } from '../db/queryable.js'
import { PUT_CONTENT, READ_CONTENT } from './sql/postgres-store.js'

export async function putContent(db: Queryable, contentId: string, bytes: Buffer): Promise<void> {
  const { rows } = await db.query<{ id: string }>({ name: 'aizk_content_put', text: PUT_CONTENT, values: [bytes] })
  if (rows[0].id !== contentId) throw new Error(`content id mismatch: computed ${contentId}, the database computed ${rows[0].id}`)
}

export async function readContent(db: Queryable, contentId: string, scopes: readonly string[]): Promise<Buffer | null> {
  const { rows } = await db.query<{ bytes: Buffer | null }>({
    name: 'aizk_content_read',
    text: READ_CONTENT,
    values: [contentId, scopes],
  })
  return rows[0]?.bytes ?? null
}
