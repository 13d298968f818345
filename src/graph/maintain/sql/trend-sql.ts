/**
 * The trend pass's statements, in the order it runs them inside one transaction: the set's live
 * weight per entity into a temp table, the entities that moved against `entity_trend`, then the
 * new measurements stored. $1 is always the scope set.
 */
export const MEASURE_TREND_WEIGHTS = `CREATE TEMP TABLE pg_temp.aizk_trend_now ON COMMIT DROP AS
     SELECT e AS entity_id, sum(w)::float8 AS weight FROM (
       SELECT subject_id AS e, weight AS w FROM claim
        WHERE scopes = $1::uuid[] AND subject_id IS NOT NULL AND superseded_by IS NULL AND NOT faded
       UNION ALL
       SELECT object_id, weight FROM claim
        WHERE scopes = $1::uuid[] AND object_id IS NOT NULL AND object_id <> subject_id AND superseded_by IS NULL AND NOT faded) x
     GROUP BY e`

export const MOVED_ENTITIES = `WITH moved AS (
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
       FROM moved m JOIN entity e ON e.id = m.id`

export const STORE_TREND_WEIGHTS = `INSERT INTO entity_trend (entity_id, scopes, weight, measured_at)
     SELECT n.entity_id, $1::uuid[], n.weight, now() FROM pg_temp.aizk_trend_now n JOIN entity e ON e.id = n.entity_id AND e.scopes = $1::uuid[]
     ON CONFLICT (entity_id) DO UPDATE SET weight = excluded.weight, measured_at = excluded.measured_at`

export const ZERO_VANISHED_TRENDS = `UPDATE entity_trend t SET weight = 0, measured_at = now()
      WHERE t.scopes = $1::uuid[] AND t.weight <> 0 AND NOT EXISTS (SELECT 1 FROM pg_temp.aizk_trend_now n WHERE n.entity_id = t.entity_id)`

export const INDEX_TREND_WEIGHTS = 'ALTER TABLE pg_temp.aizk_trend_now ADD PRIMARY KEY (entity_id)'

export const ANALYZE_TREND_WEIGHTS = 'ANALYZE pg_temp.aizk_trend_now'

export const DROP_TREND_WEIGHTS = 'DROP TABLE pg_temp.aizk_trend_now'
