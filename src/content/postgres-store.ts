/**
 * Originals in PostgreSQL (aizk_content, keyed by content id): bytes stored once however many
 * artifacts in however many scope sets point at them. The app role may add bytes and read those
 * an artifact it can see refers to (the table's row security says so).
 */
import type { Queryable } from '../db/queryable.js'

export async function putContent(db: Queryable, contentId: string, bytes: Buffer): Promise<void> {
  await db.query({
    name: 'aizk_content_put',
    text: 'INSERT INTO aizk_content (content_id, bytes, byte_size) VALUES ($1, $2, $3) ON CONFLICT (content_id) DO NOTHING',
    values: [contentId, bytes, bytes.length],
  })
}

export async function readContent(db: Queryable, contentId: string): Promise<Buffer | null> {
  const { rows } = await db.query<{ bytes: Buffer }>({
    name: 'aizk_content_read',
    text: 'SELECT bytes FROM aizk_content WHERE content_id = $1',
    values: [contentId],
  })
  return rows[0]?.bytes ?? null
}
