/**
 * Integrity of stored originals: re-hash the bytes against the content id. The candidate query
 * and the marking run on the caller's client inside User.system(scopes); the counts for
 * `aizk status` and metrics read only the status column.
 */
import type { Queryable } from '../db/queryable.js'
import { contentIdOf } from './content-id.js'
import { type ContentSettings, readOriginal } from './store.js'

export type IntegrityStatus = 'ok' | 'mismatch' | 'missing'

export interface IntegrityCandidate {
  id: string
  scopes: string[]
  contentId: string
  storage: string
  location: string | null
  verifiedAt: Date | null
  created: Date
}

/** Originals of exactly this scope set older than `minAgeDays`, least recently verified first. */
export async function integrityCandidates(db: Queryable, scopes: readonly string[], opts: { limit: number; minAgeDays: number }): Promise<IntegrityCandidate[]> {
  const { rows } = await db.query<{ id: string; scopes: string[]; content_id: string; storage: string; location: string | null; verified_at: Date | null; created: Date }>(
    `SELECT id::text, scopes::text[] AS scopes, content_id, storage, location, verified_at, created FROM artifact
      WHERE scopes = $1::uuid[] AND created < now() - make_interval(secs => $2::float8 * 86400)
      ORDER BY verified_at NULLS FIRST, created, id
      LIMIT $3`,
    [scopes, opts.minAgeDays, opts.limit],
  )
  return rows.map((r) => ({
    id: r.id,
    scopes: r.scopes,
    contentId: r.content_id,
    storage: r.storage,
    location: r.location,
    verifiedAt: r.verified_at,
    created: r.created,
  }))
}

/** Re-hash one original and record the verdict on its artifact. */
export async function verifyOriginal(db: Queryable, settings: ContentSettings, c: IntegrityCandidate): Promise<IntegrityStatus> {
  let bytes: Buffer | null
  try {
    bytes = await readOriginal(db, settings, c)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === undefined) throw err
    bytes = null
  }
  const status: IntegrityStatus = bytes === null ? 'missing' : contentIdOf(bytes) === c.contentId ? 'ok' : 'mismatch'
  await db.query('UPDATE artifact SET integrity_status = $2, verified_at = now() WHERE id = $1', [c.id, status])
  return status
}

export interface IntegrityCounts {
  unverified: number
  ok: number
  mismatch: number
  missing: number
}

/** Artifacts by integrity status (as the caller sees them): what `aizk status` and metrics show. */
export async function countIntegrity(db: Queryable): Promise<IntegrityCounts> {
  const { rows } = await db.query<{ integrity_status: keyof IntegrityCounts; n: string }>(
    'SELECT integrity_status, count(*) AS n FROM artifact GROUP BY 1',
  )
  const out: IntegrityCounts = { unverified: 0, ok: 0, mismatch: 0, missing: 0 }
  for (const r of rows) out[r.integrity_status] = Number(r.n)
  return out
}

export interface IntegrityFailures {
  mismatch: number
  missing: number
}

/**
 * Artifacts whose original failed re-verification, across all scope sets: an operator's
 * aggregate (`aizk status`, metrics), read through a partial index so it costs nothing when
 * all is well, whatever the number of artifacts.
 */
export async function countIntegrityFailures(db: Queryable): Promise<IntegrityFailures> {
  const { rows } = await db.query<{ integrity_status: keyof IntegrityFailures; n: string }>(
    "SELECT integrity_status, count(*) AS n FROM artifact WHERE integrity_status IN ('mismatch', 'missing') GROUP BY 1",
  )
  const out: IntegrityFailures = { mismatch: 0, missing: 0 }
  for (const r of rows) out[r.integrity_status] = Number(r.n)
  return out
}
