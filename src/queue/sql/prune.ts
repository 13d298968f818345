/** Pruning pgqueuer_log: the cutoff, batched deletes, counts, vacuum, size. */

export const DELETE_BATCH = `
  WITH doomed AS (
    SELECT id FROM pgqueuer_log WHERE created < $1 ORDER BY created LIMIT $2
  )
  DELETE FROM pgqueuer_log l USING doomed WHERE l.id = doomed.id`

export const CUTOFF_OF = `SELECT now() - make_interval(secs => $1::float8 * 86400) AS cutoff`

export const COUNT_PRUNABLE = 'SELECT count(*) AS n FROM pgqueuer_log WHERE created < $1'

export const COUNT_LEFT = 'SELECT count(*) AS n FROM pgqueuer_log WHERE created < $1'

export const VACUUM_LOG = 'VACUUM (ANALYZE) pgqueuer_log'

export const LOG_SIZE = `SELECT c.reltuples::float8 AS reltuples, pg_total_relation_size(c.oid)::text AS bytes, c.relpersistence = 'u' AS unlogged
       FROM pg_class c WHERE c.oid = 'pgqueuer_log'::regclass`

export const VACUUM_FULL_LOG = 'VACUUM (FULL, ANALYZE) pgqueuer_log'

export const RESET_LOCK_TIMEOUT = 'RESET lock_timeout'
