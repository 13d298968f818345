/**
 * Contradictions: one subject and a single-valued predicate (single-valued.ts) with different
 * live objects ("Ada was born in London", "Ada was born in Paris"). Live means neither superseded
 * nor faded. Any other predicate may hold several values at once, and a subject and predicate
 * with more than `maxObjects` objects is a list either way: both are left alone. The evidence is
 * every live claim of the group.
 */
import type { Queryable } from '../../../db/queryable.js'
import type { NewInsight } from '../sql/insight-sql.js'
import { isSingleValuedPredicate } from './single-valued.js'

export async function findContradictions(db: Queryable, scopes: readonly string[], maxObjects: number): Promise<NewInsight[]> {
  const { rows } = await db.query<{ subject_id: string; subject: string; predicate: string; ids: string[]; objects: string[] }>(
    `SELECT c.subject_id::text, s.name AS subject, c.predicate,
            array_agg(c.id::text ORDER BY c.weight DESC, c.id) AS ids,
            array_agg(coalesce(o.name, c.object_text) ORDER BY c.weight DESC, c.id) AS objects
       FROM claim c
       JOIN entity s ON s.id = c.subject_id
       LEFT JOIN entity o ON o.id = c.object_id
      WHERE c.scopes = $1::uuid[] AND c.subject_id IS NOT NULL AND c.superseded_by IS NULL AND NOT c.faded
      GROUP BY c.subject_id, s.name, c.predicate
     HAVING count(DISTINCT c.object_key) BETWEEN 2 AND $2`,
    [scopes, maxObjects],
  )
  return rows.filter((r) => isSingleValuedPredicate(r.predicate)).map((r) => ({
    kind: 'contradiction',
    title: `${r.subject} ${r.predicate}: ${r.objects.join(' / ')}`,
    detail: { subject: r.subject, predicate: r.predicate, objects: r.objects },
    entityId: r.subject_id,
    about: r.subject_id,
    claimIds: r.ids,
  }))
}
