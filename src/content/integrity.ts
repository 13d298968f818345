/**
 * Integrity of stored originals: re-hash the bytes against the content id. The candidate query
 * and the marking run on the caller's client inside User.system(scopes); the counts for
 * `aizk status` and metrics read only the status column.
 */
import type { Queryable } from '../db/queryable.js'
import { contentIdOf } from './content-id.js'
import { COUNT_INTEGRITY, COUNT_INTEGRITY_FAILURES, INTEGRITY_CANDIDATES, SET_INTEGRITY_STATUS } from './sql/integrity.js'
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
export async function integrityCandidates(
  db: Queryable,
  scopes: readonly string[],
  opts: { limit: number; minAgeDays: number },
): Promise<IntegrityCandidate[]> {
  const { rows } = await db.query<{
    id: string
    scopes: string[]
    content_id: string
    storage: string
    location: string | null
    verified_at: Date | null
    created: Date
  }>(INTEGRITY_CANDIDATES, [scopes, opts.minAgeDays, opts.limit])
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
  await db.query(SET_INTEGRITY_STATUS, [c.id, status])
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
  const { rows } = await db.query<{ integrity_status: keyof IntegrityCounts; n: string }>(COUNT_INTEGRITY)
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
  const { rows } = await db.query<{ integrity_status: keyof IntegrityFailures; n: string }>(COUNT_INTEGRITY_FAILURES)
  const out: IntegrityFailures = { mismatch: 0, missing: 0 }
  for (const r of rows) out[r.integrity_status] = Number(r.n)
  return out
}
