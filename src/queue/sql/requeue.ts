/** Requeue of held jobs: the window, the requeue, its preview, the count. */
import { filterSql, windowSql } from './job-filter.js'

/** The cycles a row has burned, as stored under headers.aizk.cycles. */
export const CYCLES_SQL = `coalesce(CASE WHEN jsonb_typeof(headers->'aizk'->'cycles') = 'number' THEN (headers->'aizk'->>'cycles')::int END, 0)`

export const WINDOW = windowSql('failed', `($6::int IS NULL OR ${CYCLES_SQL} < $6::int)`)

export const REQUEUE = `
  WITH win AS (${WINDOW} FOR UPDATE SKIP LOCKED),
  moved AS (
    UPDATE pgqueuer p
       SET status = 'queued', attempts = 0, execute_after = now(), updated = now(), heartbeat = now(),
           queue_manager_id = NULL,
           headers = coalesce(CASE WHEN jsonb_typeof(p.headers) = 'object' THEN p.headers END, '{}'::jsonb)
             || jsonb_build_object('aizk',
                  coalesce(CASE WHEN jsonb_typeof(p.headers->'aizk') = 'object' THEN p.headers->'aizk' END, '{}'::jsonb)
                  || jsonb_build_object('cycles', ${CYCLES_SQL.replaceAll('headers', 'p.headers')} + 1))
      FROM win
     WHERE p.id = win.id AND p.status = 'failed'
    RETURNING p.id, p.entrypoint, p.priority, (p.headers->'aizk'->>'cycles')::int AS cycles
  ),
  logged AS (
    INSERT INTO pgqueuer_log (job_id, status, priority, entrypoint)
    SELECT id, 'queued', priority, entrypoint FROM moved WHERE $7::boolean
  ),
  notified AS (
    SELECT pg_notify('ch_pgqueuer', json_build_object(
             'channel', 'ch_pgqueuer', 'operation', 'update', 'sent_at', now(),
             'table', 'pgqueuer', 'type', 'table_changed_event')::text) AS n
     WHERE EXISTS (SELECT 1 FROM moved)
  )
  SELECT m.id::text AS id, m.entrypoint, m.cycles
    FROM moved m LEFT JOIN notified ON true
   ORDER BY m.id`

export const PREVIEW = `
  SELECT p.id::text AS id, p.entrypoint, ${CYCLES_SQL.replaceAll('headers', 'p.headers')} + 1 AS cycles
    FROM pgqueuer p JOIN (${WINDOW}) win USING (id)
   ORDER BY p.id`

export const COUNT_HELD = `SELECT count(*) AS n FROM pgqueuer
      WHERE status = 'failed' AND ${filterSql(1)} AND ${CYCLES_SQL} < $4::int`
