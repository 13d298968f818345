/** Live jobs by state (`aizk jobs`): queued per group, held, picked, scheduled. */
import { CYCLES_SQL } from './requeue.js'

export const COLUMNS = `p.id, p.status::text AS status, p.entrypoint, p.priority, p.attempts, ${CYCLES_SQL.replaceAll('headers', 'p.headers')} AS cycles,
  p.created, p.updated, p.execute_after, extract(epoch FROM now() - p.updated)::float8 AS age,
  greatest(extract(epoch FROM p.execute_after - now()), 0)::float8 AS due_in, p.queue_manager_id::text AS queue_manager_id,
  CASE WHEN p.status = 'failed' THEN p.headers->'aizk'->'lastError' END AS last_error`

/** $3 age, $4 after id, $5 limit: the filters every walk applies. */
export const COMMON = `($3::float8 IS NULL OR p.updated <= now() - $3::float8 * interval '1 second')
  AND ($4::bigint IS NULL OR p.id > $4::bigint)`

/** Queued rows of each (entrypoint, priority) group, id order; `due` narrows to ready or scheduled. */
export function queuedSql(due: 'any' | 'ready'): string {
  const ready = due === 'ready' ? 'AND p.execute_after <= now()' : ''
  return `SELECT w.* FROM unnest($1::text[], $2::int[]) AS g(entrypoint, priority)
     CROSS JOIN LATERAL (
       SELECT ${COLUMNS} FROM pgqueuer p
        WHERE p.status = 'queued' AND p.entrypoint = g.entrypoint AND p.priority = g.priority ${ready} AND ${COMMON}
        ORDER BY p.entrypoint, p.priority DESC, p.id LIMIT $5) w
    ORDER BY w.id LIMIT $5`
}

/** Held rows of each entrypoint ($1), id order ($2 is the priorities filter). */
export const HELD = `SELECT w.* FROM unnest($1::text[]) AS g(entrypoint)
   CROSS JOIN LATERAL (
     SELECT ${COLUMNS} FROM pgqueuer p
      WHERE p.status = 'failed' AND p.entrypoint = g.entrypoint
        AND ($2::int[] IS NULL OR p.priority = ANY($2::int[])) AND ${COMMON}
      ORDER BY p.entrypoint, p.id LIMIT $5) w
  ORDER BY w.id LIMIT $5`

export const PICKED = `SELECT ${COLUMNS} FROM pgqueuer p
  WHERE p.status = 'picked' AND ($1::text[] IS NULL OR p.entrypoint = ANY($1::text[]))
    AND ($2::int[] IS NULL OR p.priority = ANY($2::int[])) AND ${COMMON}
  ORDER BY p.id LIMIT $5`

/**
 * Scheduled rows, soonest due first: per entrypoint the range execute_after > the cursor's due
 * time. A cursor row that is gone or due now resumes at now(): every row due before it is due too.
 */
export const SCHEDULED = `WITH cursor AS (
    SELECT greatest(coalesce((SELECT execute_after FROM pgqueuer WHERE id = $4::bigint AND status = 'queued'), now()), now()) AS due,
           (SELECT id FROM pgqueuer WHERE id = $4::bigint AND status = 'queued' AND execute_after > now()) AS id
  )
  SELECT w.* FROM cursor, unnest($1::text[]) AS g(entrypoint)
   CROSS JOIN LATERAL (
     SELECT ${COLUMNS} FROM pgqueuer p
      WHERE p.status = 'queued' AND p.entrypoint = g.entrypoint
        AND p.execute_after >= cursor.due AND p.execute_after > now()
        AND (p.execute_after > cursor.due OR cursor.id IS NULL OR p.id > cursor.id)
        AND ($2::int[] IS NULL OR p.priority = ANY($2::int[]))
        AND ($3::float8 IS NULL OR p.updated <= now() - $3::float8 * interval '1 second')
      ORDER BY p.entrypoint, p.execute_after, p.id LIMIT $5) w
  ORDER BY w.execute_after, w.id LIMIT $5`
