/** The stats snapshot's own statements. */

export const READ_OLDEST = `SELECT e.entrypoint,
            CASE WHEN o.execute_after <= now() THEN extract(epoch FROM now() - o.execute_after)::float8 ELSE 0 END AS age,
            CASE WHEN o.execute_after > now() THEN o.execute_after END AS next
       FROM unnest($1::text[]) AS e(entrypoint)
       CROSS JOIN LATERAL (
         SELECT execute_after FROM pgqueuer
          WHERE status = 'queued' AND entrypoint = e.entrypoint
          ORDER BY entrypoint, execute_after LIMIT 1
       ) o`

export const BEGIN_STATS_SNAPSHOT = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL jit = off'
