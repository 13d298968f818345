/** SQL of the community reports pass, inside User.system(scopes): communities not yet reported, and storing reports. */
import type { Queryable } from '../../../db/queryable.js'
import { claimSentence } from '../claim-sentence.js'

export interface UnreportedCommunity {
  id: string
  size: number
  /** Member names (a community above level 0 holds its descendants' members), most mentioned first. */
  names: string[]
  /** Its strongest claims as sentences, strongest first. */
  sentences: string[]
}

/** Up to `limit` communities of exactly this set with no model report yet, top levels and big ones first. */
export async function unreportedCommunities(db: Queryable, scopes: readonly string[], limit: number, memberLimit = 20): Promise<UnreportedCommunity[]> {
  const { rows } = await db.query<{ id: string; size: number; names: string[]; claims: { s: string; p: string; o: string }[] }>(
    `SELECT c.id::text, c.size,
            ARRAY(WITH RECURSIVE below AS (
                    SELECT c.id UNION ALL SELECT x.id FROM below b JOIN community x ON x.parent_id = b.id)
                  SELECT e.name FROM below b JOIN community_member m ON m.community_id = b.id JOIN entity e ON e.id = m.entity_id
                   ORDER BY (SELECT coalesce(sum(n.count), 0) FROM mention n WHERE n.entity_id = e.id) DESC, e.name LIMIT $3) AS names,
            coalesce((SELECT json_agg(json_build_object('s', se.name, 'p', k.predicate, 'o', coalesce(oe.name, k.object_text)) ORDER BY k.weight DESC, k.id)
                        FROM claim k JOIN entity se ON se.id = k.subject_id LEFT JOIN entity oe ON oe.id = k.object_id
                       WHERE k.id = ANY(c.claim_ids)), '[]') AS claims
       FROM community c
      WHERE c.scopes = $1::uuid[] AND c.reported_at IS NULL
      ORDER BY c.level DESC, c.size DESC, c.id
      LIMIT $2`,
    [scopes, limit, memberLimit],
  )
  return rows.map((r) => ({ id: r.id, size: r.size, names: r.names, sentences: r.claims.map((k) => claimSentence(k.s, k.p, k.o)) }))
}

/** Store reports (a null report keeps the extractive text but marks the community reported, so it is not asked again). */
export async function storeCommunityReports(
  db: Queryable,
  scopes: readonly string[],
  reports: { id: string; report: { title: string; summary: string; findings: unknown[] } | null }[],
): Promise<number> {
  if (reports.length === 0) return 0
  const { rowCount } = await db.query(
    `UPDATE community c SET title = coalesce(u.title, c.title), summary = coalesce(u.summary, c.summary),
            findings = coalesce(u.findings, c.findings), reported_at = now()
       FROM jsonb_to_recordset($2::jsonb) AS u(id uuid, title text, summary text, findings jsonb)
      WHERE c.id = u.id AND c.scopes = $1::uuid[]`,
    [
      scopes,
      JSON.stringify(
        reports.map((r) => ({ id: r.id, title: r.report?.title ?? null, summary: r.report?.summary ?? null, findings: r.report?.findings ?? null })),
      ),
    ],
  )
  return rowCount ?? 0
}
