/**
 * Writing insights, on the caller's client inside User.system(scopes). An insight is keyed by
 * its kind and its evidence (`evidenceKey`, built from the sorted evidence claim ids), so the
 * same finding over the same evidence is never written twice, however often the pass runs.
 */
import type { Queryable } from '../../../db/queryable.js'

export type InsightKind = 'contradiction' | 'rising_entity' | 'fading_entity' | 'new_community' | 'split_community'

export interface NewInsight {
  kind: InsightKind
  title: string
  detail: Record<string, unknown>
  entityId?: string | null
  /** What names the finding besides its claims (an entity, a community lineage); may be empty. */
  about?: string
  claimIds: string[]
}

export function evidenceKey(insight: Pick<NewInsight, 'about' | 'claimIds'>): string {
  return `${insight.about ?? ''}|${[...new Set(insight.claimIds)].sort().join(',')}`
}

/** Insert the ones whose (kind, evidence) is new, with their evidence rows; returns how many. */
export async function writeInsights(db: Queryable, scopes: readonly string[], insights: NewInsight[]): Promise<number> {
  const fresh = insights.filter((i) => i.claimIds.length > 0)
  if (fresh.length === 0) return 0
  const keyed = new Map(fresh.map((i) => [`${i.kind}\u0000${evidenceKey(i)}`, i]))
  const { rows } = await db.query<{ id: string; kind: string; evidence_key: string }>(
    `INSERT INTO insight (scopes, kind, title, detail, entity_id, evidence_key)
     SELECT $1::uuid[], u.kind, u.title, u.detail, u.entity_id, u.evidence_key
       FROM jsonb_to_recordset($2::jsonb) AS u(kind text, title text, detail jsonb, entity_id uuid, evidence_key text)
     ON CONFLICT (scopes, kind, evidence_key) DO NOTHING
     RETURNING id::text, kind, evidence_key`,
    [
      scopes,
      JSON.stringify(
        [...keyed.values()].map((i) => ({ kind: i.kind, title: i.title, detail: i.detail, entity_id: i.entityId ?? null, evidence_key: evidenceKey(i) })),
      ),
    ],
  )
  const insightIds: string[] = []
  const claimIds: string[] = []
  for (const r of rows) {
    for (const c of new Set(keyed.get(`${r.kind}\u0000${r.evidence_key}`)?.claimIds ?? [])) {
      insightIds.push(r.id)
      claimIds.push(c)
    }
  }
  await db.query(
    `INSERT INTO insight_evidence (insight_id, claim_id, scopes)
     SELECT i, c, $1::uuid[] FROM unnest($2::uuid[], $3::uuid[]) AS u(i, c)`,
    [scopes, insightIds, claimIds],
  )
  return rows.length
}

/** The current build's new and split communities with evidence claims ($1 the set). */
export const NEW_AND_SPLIT_COMMUNITIES = `SELECT lineage::text, level, title, size, novelty, split_from::text, claim_ids::text[]
       FROM community WHERE scopes = $1::uuid[] AND novelty IN ('new', 'split') AND cardinality(claim_ids) > 0
      ORDER BY level, size DESC`

/** Live claims grouped by subject and predicate with 2 to $2 distinct objects ($1 the set), strongest first. */
const LIVE_CLAIM = 'c.scopes = $1::uuid[] AND c.subject_id IS NOT NULL AND c.superseded_by IS NULL AND NOT c.faded'

/** Live claims of one subject and predicate with two or more objects, with their dates, strongest first. */
export const VALUES_BY_SUBJECT = `SELECT c.subject_id::text AS about_id, s.name AS about, c.predicate,
            array_agg(c.id::text ORDER BY c.weight DESC, c.id) AS ids,
            array_agg(coalesce(o.name, c.object_text) ORDER BY c.weight DESC, c.id) AS values,
            array_agg(c.valid_from ORDER BY c.weight DESC, c.id) AS dates
       FROM claim c
       JOIN entity s ON s.id = c.subject_id
       LEFT JOIN entity o ON o.id = c.object_id
      WHERE ${LIVE_CLAIM} AND regexp_replace(c.predicate, '^not ', '') ~ ANY($2::text[])
      GROUP BY c.subject_id, s.name, c.predicate
     HAVING count(DISTINCT c.object_key) >= 2`

/** Live claims of one object entity and predicate with two or more subjects, with their dates. */
export const VALUES_BY_OBJECT = `SELECT c.object_id::text AS about_id, o.name AS about, c.predicate,
            array_agg(c.id::text ORDER BY c.weight DESC, c.id) AS ids,
            array_agg(s.name ORDER BY c.weight DESC, c.id) AS values,
            array_agg(c.valid_from ORDER BY c.weight DESC, c.id) AS dates
       FROM claim c
       JOIN entity s ON s.id = c.subject_id
       JOIN entity o ON o.id = c.object_id
      WHERE ${LIVE_CLAIM} AND c.predicate ~ ANY($2::text[])
      GROUP BY c.object_id, o.name, c.predicate
     HAVING count(DISTINCT c.subject_id) >= 2`
