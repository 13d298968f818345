/**
 * Contradictions: one subject and a single-valued predicate (single-valued.ts) with different
 * live objects ("Ada was born in London", "Ada was born in Paris"), or for a predicate
 * single-valued on the object's side, one object with different subjects ("A leads Debian", "B
 * leads Debian"). Live means neither superseded nor faded. The values are read as a timeline
 * (timelineOf, from each claim's valid_from): values each dated apart replaced one another, a
 * supersession, not a contradiction. Any other predicate may hold several values at once, and more
 * than `maxObjects` undated values are a list either way: both are left alone. The evidence is
 * every live claim of the group.
 */
import type { Queryable } from '../../../db/queryable.js'
import { type NewInsight, VALUES_BY_OBJECT, VALUES_BY_SUBJECT } from '../sql/insight-sql.js'
import { singleValuedPatterns, timelineOf } from './single-valued.js'

interface Group {
  about_id: string
  about: string
  predicate: string
  ids: string[]
  values: string[]
  dates: (string | null)[]
}

export async function findContradictions(db: Queryable, scopes: readonly string[], maxObjects: number): Promise<NewInsight[]> {
  const { subject, object } = singleValuedPatterns()
  const bySubject = await db.query<Group>(VALUES_BY_SUBJECT, [scopes, subject])
  const byObject = await db.query<Group>(VALUES_BY_OBJECT, [scopes, object])
  const found: NewInsight[] = []
  for (const r of [...bySubject.rows, ...byObject.rows]) {
    const timeline = timelineOf(
      r.values.map((value, n) => ({ value, when: r.dates[n] ?? undefined })),
      maxObjects,
    )
    if (timeline.kind !== 'contradiction') continue
    found.push({
      kind: 'contradiction',
      title: `${r.about} ${r.predicate}: ${timeline.values.join(' / ')}`,
      detail: { subject: r.about, predicate: r.predicate, objects: timeline.values },
      entityId: r.about_id,
      about: r.about_id,
      claimIds: r.ids,
    })
  }
  return found
}
