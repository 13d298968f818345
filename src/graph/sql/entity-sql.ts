/** SQL on `entity`, on the caller's client inside User.system(scopes). */
import type { Queryable } from '../../db/queryable.js'
import type { CleanEntity } from '../extraction.js'

export const entityKey = (kind: string, normalizedName: string) => `${kind}\u0000${normalizedName}`

/**
 * Find or create each entity of exactly this scope set (by kind and normalized name) and return
 * the live id each resolves to: a merged entity answers with the one it was merged into.
 * Rows go in sorted order so two projections of one set lock them in the same order.
 */
export async function upsertEntities(db: Queryable, scopes: readonly string[], entities: CleanEntity[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>()
  if (entities.length === 0) return ids
  const sorted = [...entities].sort((a, b) => entityKey(a.kind, a.normalizedName).localeCompare(entityKey(b.kind, b.normalizedName)))
  const { rows } = await db.query<{ kind: string; normalized_name: string; id: string }>(
    `WITH upserted AS (
       INSERT INTO entity (scopes, name, normalized_name, kind)
       SELECT $1::uuid[], u.name, u.normalized_name, u.kind
         FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS u(name, normalized_name, kind, n)
        ORDER BY u.n
       ON CONFLICT (scopes, kind, normalized_name) DO UPDATE SET last_seen = now()
       RETURNING id, kind, normalized_name, merged_into)
     SELECT kind, normalized_name, coalesce(merged_into, id)::text AS id FROM upserted`,
    [scopes, sorted.map((e) => e.name), sorted.map((e) => e.normalizedName), sorted.map((e) => e.kind)],
  )
  for (const r of rows) ids.set(entityKey(r.kind, r.normalized_name), r.id)
  return ids
}
