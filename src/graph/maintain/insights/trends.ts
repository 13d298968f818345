/**
 * Rising and fading entities: an entity's weight is the sum of its live claims' weights (as
 * subject or object). Against the weight the insight pass measured last time, one that grew by
 * `ratio` (and by at least `minDelta`) is rising, one that shrank as much is fading. The first
 * measurement is only a baseline. Evidence: for a rising entity the claims reinforced since the
 * last measurement, for a fading one its strongest claims, faded or not.
 */
import type { Queryable } from '../../../db/queryable.js'
import type { NewInsight } from '../sql/insight-sql.js'

export interface TrendOptions {
  ratio: number
  minDelta: number
  evidenceClaims: number
}

export async function findTrends(db: Queryable, scopes: readonly string[], opts: TrendOptions): Promise<NewInsight[]> {
  // Named with pg_temp.: a table of the same name elsewhere on the search path never stands in.
  await db.query(
    `CREATE TEMP TABLE pg_temp.aizk_trend_now ON COMMIT DROP AS
     SELECT e AS entity_id, sum(w)::float8 AS weight FROM (
       SELECT subject_id AS e, weight AS w FROM claim
        WHERE scopes = $1::uuid[] AND subject_id IS NOT NULL AND superseded_by IS NULL AND NOT faded
       UNION ALL
       SELECT object_id, weight FROM claim
        WHERE scopes = $1::uuid[] AND object_id IS NOT NULL AND object_id <> subject_id AND superseded_by IS NULL AND NOT faded) x
     GROUP BY e`,
    [scopes],
  )
  // A temp table has no statistics: without a key and ANALYZE, the joins below may be planned
  // as nested loops over every pair of entities.
  await db.query('ALTER TABLE pg_temp.aizk_trend_now ADD PRIMARY KEY (entity_id)')
  await db.query('ANALYZE pg_temp.aizk_trend_now')
  const { rows } = await db.query<{ id: string; name: string; before: number; now: number; since: Date; evidence: string[] | null }>(
    `WITH moved AS (
       SELECT t.entity_id AS id, t.weight AS before, coalesce(n.weight, 0) AS now, t.measured_at AS since
         FROM entity_trend t LEFT JOIN pg_temp.aizk_trend_now n ON n.entity_id = t.entity_id
        WHERE t.scopes = $1::uuid[]
          AND ((coalesce(n.weight, 0) >= t.weight * $2 AND coalesce(n.weight, 0) - t.weight >= $3)
            OR (coalesce(n.weight, 0) * $2 <= t.weight AND t.weight - coalesce(n.weight, 0) >= $3)))
     SELECT m.id::text, e.name, m.before, m.now, m.since,
            (SELECT array_agg(c.id::text) FROM (
               SELECT c.id FROM claim c
                WHERE c.scopes = $1::uuid[] AND (c.subject_id = m.id OR c.object_id = m.id)
                  AND (m.now < m.before OR (c.last_reinforced > m.since AND c.superseded_by IS NULL AND NOT c.faded))
                ORDER BY c.weight DESC, c.id LIMIT $4) c) AS evidence
       FROM moved m JOIN entity e ON e.id = m.id`,
    [scopes, opts.ratio, opts.minDelta, opts.evidenceClaims],
  )
  await db.query(
    `INSERT INTO entity_trend (entity_id, scopes, weight, measured_at)
     SELECT n.entity_id, $1::uuid[], n.weight, now() FROM pg_temp.aizk_trend_now n JOIN entity e ON e.id = n.entity_id AND e.scopes = $1::uuid[]
     ON CONFLICT (entity_id) DO UPDATE SET weight = excluded.weight, measured_at = excluded.measured_at`,
    [scopes],
  )
  await db.query(
    `UPDATE entity_trend t SET weight = 0, measured_at = now()
      WHERE t.scopes = $1::uuid[] AND t.weight <> 0 AND NOT EXISTS (SELECT 1 FROM pg_temp.aizk_trend_now n WHERE n.entity_id = t.entity_id)`,
    [scopes],
  )
  await db.query('DROP TABLE pg_temp.aizk_trend_now')
  return rows.map((r) => {
    const rising = r.now > r.before
    return {
      kind: rising ? 'rising_entity' : 'fading_entity',
      title: `${r.name} is ${rising ? 'rising' : 'fading'}: weight ${Number(r.before).toFixed(2)} -> ${Number(r.now).toFixed(2)}`,
      detail: { entity: r.name, before: Number(r.before), now: Number(r.now), since: r.since.toISOString() },
      entityId: r.id,
      about: r.id,
      claimIds: r.evidence ?? [],
    }
  })
}
