/**
 * Contradictions: one subject and a single-valued predicate (single-valued.ts) with different
 * live objects ("Ada was born in London", "Ada was born in Paris"). Live means neither superseded
 * nor faded. Any other predicate may hold several values at once, and a subject and predicate
 * with more than `maxObjects` objects is a list either way: both are left alone. The evidence is
 * every live claim of the group.
 */
import type { Queryable } from '../../../db/queryable.js'
import { CLAIMS_BY_SUBJECT_AND_PREDICATE, type NewInsight } from '../sql/insight-sql.js'
import { isSingleValuedPredicate } from './single-valued.js'

export async function findContradictions(db: Queryable, scopes: readonly string[], maxObjects: number): Promise<NewInsight[]> {
  const { rows } = await db.query<{ subject_id: string; subject: string; predicate: string; ids: string[]; objects: string[] }>(
    CLAIMS_BY_SUBJECT_AND_PREDICATE,
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
