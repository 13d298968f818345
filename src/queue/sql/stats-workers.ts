/** Foreign workers and the stale and suspect picks. */
import { PICKED_CAP } from '../../db/sql/aizk-worker.js'

/** A pick is stale when its owner is proven dead: the database's rule, aizk_stale_pick, which aizk_pick re-picks by. */
export const STALE_WHERE = `status = 'picked'
   AND heartbeat < aizk_stale_pick_bound($1::float8, $2::float8)
   AND aizk_stale_pick(heartbeat, queue_manager_id, $1::float8, $2::float8)`

/**
 * Suspect picks: a foreign owner's (or no owner's) picks older than aizk's heartbeat timeout
 * while no pick of that owner is fresher, and not yet stale by the foreign timeout.
 */
export const SUSPECT_WHERE = `status = 'picked'
   AND heartbeat < now() - make_interval(secs => $1::float8)
   AND NOT EXISTS (SELECT 1 FROM aizk_worker w WHERE w.queue_manager_id = p.queue_manager_id)
   AND NOT aizk_stale_pick(heartbeat, queue_manager_id, $1::float8, $2::float8)
   AND NOT EXISTS (SELECT 1 FROM pgqueuer o
                    WHERE o.queue_manager_id = p.queue_manager_id AND o.status = 'picked'
                      AND o.heartbeat >= now() - make_interval(secs => $1::float8))`

export const READ_FOREIGN_WORKERS = `WITH RECURSIVE qms AS (
       (SELECT queue_manager_id AS qm FROM pgqueuer WHERE queue_manager_id IS NOT NULL ORDER BY queue_manager_id LIMIT 1)
       UNION ALL
       SELECT (SELECT p.queue_manager_id FROM pgqueuer p
                WHERE p.queue_manager_id > q.qm ORDER BY p.queue_manager_id LIMIT 1)
         FROM qms q WHERE q.qm IS NOT NULL
     )
     SELECT q.qm::text AS qm, f.entrypoints, f.picked::text AS picked, extract(epoch FROM now() - f.freshest)::float8 AS age
       FROM qms q
       CROSS JOIN LATERAL (
         SELECT array_agg(DISTINCT entrypoint ORDER BY entrypoint) AS entrypoints, count(*) AS picked, max(heartbeat) AS freshest
           FROM (SELECT entrypoint, heartbeat FROM pgqueuer
                  WHERE queue_manager_id = q.qm AND status = 'picked' LIMIT ${PICKED_CAP}) r
       ) f
      WHERE q.qm IS NOT NULL AND f.picked > 0
        AND NOT EXISTS (SELECT 1 FROM aizk_worker w WHERE w.queue_manager_id = q.qm)
      ORDER BY q.qm LIMIT $1`

/** The picks `where` selects (over $1 = aizk's timeout, $2 = the foreign one), oldest heartbeat first, at most $3. */
export function picksSql(where: string): string {
  return `SELECT id::text, entrypoint, queue_manager_id::text AS qm, heartbeat,
            extract(epoch FROM now() - heartbeat)::float8 AS age
       FROM pgqueuer p
      WHERE ${where}
      ORDER BY heartbeat
      LIMIT $3`
}

/** How many picks `where` selects, counted up to PICKED_CAP. */
export function countPicksSql(where: string): string {
  return `SELECT count(*)::text AS n FROM (SELECT 1 FROM pgqueuer p WHERE ${where} LIMIT ${PICKED_CAP}) s`
}
