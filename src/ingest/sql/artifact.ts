/**
 * SQL on the artifact table. Every function takes the caller's client: inside
 * User.system(scopes) row security decides what it sees and writes.
 */
import type { Queryable } from '../../db/queryable.js'

export interface ArtifactRow {
  id: string
  scopes: string[]
  contentId: string
  filename: string | null
  mediaType: string | null
  byteSize: number
  storage: string
  location: string | null
  conversionStatus: 'pending' | 'converting' | 'converted' | 'failed'
  conversionError: string | null
  markdown: string | null
  integrityStatus: string
}

const COLUMNS = `id, scopes::text[] AS scopes, content_id, filename, media_type, byte_size, storage, location,
  conversion_status, conversion_error, markdown, integrity_status`

function toRow(r: Record<string, unknown>): ArtifactRow {
  return {
    id: String(r.id),
    scopes: r.scopes as string[],
    contentId: String(r.content_id),
    filename: (r.filename as string | null) ?? null,
    mediaType: (r.media_type as string | null) ?? null,
    byteSize: Number(r.byte_size),
    storage: String(r.storage),
    location: (r.location as string | null) ?? null,
    conversionStatus: r.conversion_status as ArtifactRow['conversionStatus'],
    conversionError: (r.conversion_error as string | null) ?? null,
    markdown: (r.markdown as string | null) ?? null,
    integrityStatus: String(r.integrity_status),
  }
}

export interface NewArtifact {
  scopes: readonly string[]
  contentId: string
  filename: string | null
  mediaType: string
  byteSize: number
  storage: string
  location: string | null
}

/** Insert, or find the artifact these bytes already are in this scope set. */
export async function insertArtifact(db: Queryable, a: NewArtifact): Promise<{ id: string; inserted: boolean; status: string }> {
  const inserted = await db.query<{ id: string; conversion_status: string }>(
    `INSERT INTO artifact (scopes, content_id, filename, media_type, byte_size, storage, location)
     VALUES ($1::uuid[], $2, $3, $4, $5, $6, $7)
     ON CONFLICT (aizk_content_key(scopes, content_id)) DO NOTHING
     RETURNING id, conversion_status`,
    [a.scopes, a.contentId, a.filename, a.mediaType, a.byteSize, a.storage, a.location],
  )
  if (inserted.rows[0]) return { id: inserted.rows[0].id, inserted: true, status: inserted.rows[0].conversion_status }
  const existing = await db.query<{ id: string; conversion_status: string }>('SELECT id::text AS id, conversion_status FROM aizk_artifact_of_content($1)', [
    a.contentId,
  ])
  if (!existing.rows[0]) throw new Error(`artifact for ${a.contentId} in {${a.scopes.join(',')}} conflicted but cannot be read`)
  return { id: existing.rows[0].id, inserted: false, status: existing.rows[0].conversion_status }
}

export async function loadArtifact(db: Queryable, id: string): Promise<ArtifactRow | null> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM artifact WHERE id = $1`, [id])
  return rows[0] ? toRow(rows[0]) : null
}

export async function markConversionFailed(db: Queryable, id: string, error: string): Promise<void> {
  await db.query(`UPDATE artifact SET conversion_status = 'failed', conversion_error = $2 WHERE id = $1`, [id, error.slice(0, 4000)])
}

export async function storeMarkdown(db: Queryable, id: string, markdown: string): Promise<void> {
  await db.query(`UPDATE artifact SET markdown = $2, conversion_status = 'converted', conversion_error = NULL, converted_at = now() WHERE id = $1`, [
    id,
    markdown,
  ])
}

/**
 * Originals of exactly this scope set still waiting for conversion with no live conversion job
 * (queued, picked or held) under their content id: what a crashed hand-off leaves behind.
 */
export async function artifactsToDispatch(db: Queryable, scopes: readonly string[], limit: number): Promise<{ id: string; contentId: string }[]> {
  const { rows } = await db.query<{ id: string; content_id: string }>(
    `SELECT a.id, a.content_id FROM artifact a
      WHERE a.scopes = $1::uuid[] AND a.conversion_status IN ('pending', 'converting')
        AND NOT aizk_job_key_live(a.content_id)
      ORDER BY a.created, a.id
      LIMIT $2`,
    [scopes, limit],
  )
  return rows.map((r) => ({ id: r.id, contentId: r.content_id }))
}
