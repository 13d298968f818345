/**
 * `aizk mcp --scope S`: the queue tools show a job's payload and dedupe key only when the job
 * belongs to S or one of its subsets (its payload's `scopes`, as the app door and the drop
 * function read them); other jobs, and jobs whose payload names no set, keep their row but show
 * neither (`withheld`). Without --scope the server is an operator's and shows everything.
 */
import type { Queryable } from '../db/queryable.js'

export const WITHHELD = 'payload and dedupe key withheld: not a job of the scope set this server was started for'

/** The payload's scopes, as aizk_payload_scopes reads them; null when it names none. */
export function payloadScopes(bytes: Buffer | null): string[] | null {
  if (!bytes) return null
  try {
    const doc = JSON.parse(bytes.toString('utf8'))
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc) || !Array.isArray(doc.scopes)) return null
    return doc.scopes.map((s: unknown) => String(s).toLowerCase())
  } catch {
    return null
  }
}

export function withinSet(scopes: readonly string[] | null, readScopes: readonly string[]): boolean {
  return scopes !== null && scopes.length > 0 && scopes.every((s) => readScopes.includes(s))
}

/** The ids among `ids` whose whole payload names a set within readScopes (read as the owner). */
export async function idsWithinSet(db: Queryable, ids: readonly string[], readScopes: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set()
  const { rows } = await db.query<{ id: string }>(
    `SELECT id::text AS id FROM pgqueuer
      WHERE id = ANY($1::bigint[]) AND cardinality(aizk_payload_scopes(payload)) > 0 AND aizk_payload_scopes(payload) <@ $2::uuid[]`,
    [ids, readScopes],
  )
  return new Set(rows.map((r) => r.id))
}
