/** SQL on `entity`, on the caller's client inside User.system(scopes). */
import type { Queryable } from '../../db/queryable.js'
import type { CleanEntity } from '../extraction.js'

export const entityKey = (kind: string, normalizedName: string) => `${kind}\u0000${normalizedName}`

/**
 * Find or create each entity of exactly this scope set (by kind and normalized name) and return
 * the live id each resolves to: a merged entity answers with the one it was merged into.
 * Existing rows are read, not upserted: an upsert would lock a common entity ("Python") until
 * commit and make every projection of the set naming it wait in line. `last_seen` moves at most
 * once a minute per entity for the same reason.
 */
export async function upsertEntities(db: Queryable, scopes: readonly string[], entities: CleanEntity[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>()
  if (entities.length === 0) return ids
  const sorted = [...entities].sort((a, b) => entityKey(a.kind, a.normalizedName).localeCompare(entityKey(b.kind, b.normalizedName)))
  const params = [scopes, sorted.map((e) => e.name), sorted.map((e) => e.normalizedName), sorted.map((e) => e.kind)]
  await db.query(
    `INSERT INTO entity (scopes, name, normalized_name, kind)
     SELECT $1::uuid[], u.name, u.normalized_name, u.kind
       FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS u(name, normalized_name, kind, n)
      ORDER BY u.n
     ON CONFLICT (scopes, kind, normalized_name) DO NOTHING`,
    params,
  )
  const { rows } = await db.query<{ kind: string; normalized_name: string; id: string }>(
    `SELECT e.kind, e.normalized_name, coalesce(e.merged_into, e.id)::text AS id
       FROM unnest($2::text[], $3::text[]) AS u(normalized_name, kind)
       JOIN entity e ON e.scopes = $1::uuid[] AND e.kind = u.kind AND e.normalized_name = u.normalized_name`,
    [scopes, params[2], params[3]],
  )
  for (const r of rows) ids.set(entityKey(r.kind, r.normalized_name), r.id)
  await db.query(
    `UPDATE entity SET last_seen = now() WHERE id = ANY($1::uuid[]) AND last_seen < now() - interval '1 minute'`,
    [[...new Set(ids.values())].sort()],
  )
  return ids
}
