/** The memory backlog `aizk status` shows. */

export const READ_PROJECTION_BACKLOG = `SELECT (SELECT count(*) FROM chunk WHERE projection_status = 'pending')::text AS pending,
              (SELECT count(*) FROM profile WHERE dirty)::text AS dirty`

export const READ_GATE_DECISIONS = `SELECT w.job, g.ran, g.skipped, w.scopes::text[] AS scopes, w.decision, w.decided_at, w.observed_count::text, w.fact_count::text
         FROM (SELECT job, count(*) FILTER (WHERE decision = 'ran')::int AS ran, count(*) FILTER (WHERE decision = 'skipped')::int AS skipped,
                      max(decided_at) AS latest
                 FROM aizk_watermark WHERE decision IS NOT NULL GROUP BY job) g
         JOIN LATERAL (SELECT * FROM aizk_watermark x WHERE x.job = g.job AND x.decided_at = g.latest LIMIT 1) w ON true
        ORDER BY w.job`
