/**
 * The insight pass's closing of replaced facts (src/graph/maintain/insights/close-replaced.ts):
 * each earlier claim gets the later claim that replaced it (`ended_by`) and, when its text gave
 * no end, the later one's start as its own end. Only claims of exactly the pass's set ($1).
 */
import type { Queryable } from '../../../db/queryable.js'

export interface Closing {
  claimId: string
  endedBy: string
  /** The replacing claim's start, as its text dates it. */
  validTo: string | null
}

export async function closeClaims(db: Queryable, scopes: readonly string[], closings: readonly Closing[]): Promise<number> {
  if (closings.length === 0) return 0
  const { rowCount } = await db.query(
    `UPDATE claim c SET ended_by = u.ended_by, valid_to = coalesce(c.valid_to, u.valid_to)
       FROM jsonb_to_recordset($2::jsonb) AS u(id uuid, ended_by uuid, valid_to text)
      WHERE c.id = u.id AND c.scopes = $1::uuid[] AND c.ended_by IS DISTINCT FROM u.ended_by`,
    [scopes, JSON.stringify(closings.map((c) => ({ id: c.claimId, ended_by: c.endedBy, valid_to: c.validTo })))],
  )
  return rowCount ?? 0
}

/**
 * "Y replaced X" dated D (a `replace` claim, Y its subject, X its object) ends X's open roles: each
 * live claim of X whose predicate holds one subject at a time ($2: "X leads Debian") that began
 * before D and has no end gets D as its end and the `replace` claim as what ended it.
 */
export async function closeReplacedRoles(db: Queryable, scopes: readonly string[], rolePatterns: readonly string[]): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE claim c SET valid_to = r.valid_from, ended_by = r.id
       FROM claim r
      WHERE r.scopes = $1::uuid[] AND r.predicate = 'replace' AND r.valid_from IS NOT NULL AND r.object_id IS NOT NULL
        AND c.subject_id = r.object_id AND c.scopes = $1::uuid[] AND c.id <> r.id
        AND c.predicate ~ ANY($2::text[]) AND c.valid_to IS NULL AND c.ended_by IS NULL
        AND c.superseded_by IS NULL AND NOT c.faded
        AND coalesce(aizk_time_bound(c.valid_from, false), '-infinity'::date) < aizk_time_bound(r.valid_from, false)`,
    [scopes, rolePatterns],
  )
  return rowCount ?? 0
}
