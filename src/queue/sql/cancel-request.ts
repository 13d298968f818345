/** Cancel requests for picked jobs, and settling the canceled ones. */

import { owned } from '../../db/sql/owned.js'
import { NOTIFY_CHANNEL } from '../notify.js'
import { filterSql } from './job-filter.js'

/** Ids per notification: NOTIFY payloads must stay under 8000 bytes. */
export const IDS_PER_NOTIFY = 300

export const WINDOW = `
  SELECT id FROM pgqueuer
   WHERE status = 'picked' AND ${filterSql(1)}
     AND ($4::bigint IS NULL OR id > $4::bigint)
   ORDER BY id
   LIMIT $5`

// Plain FOR UPDATE, not SKIP LOCKED: a picked row is locked only for a moment (a heartbeat).
export const REQUEST = `
  WITH win AS (${WINDOW} FOR UPDATE),
  marked AS (
    UPDATE pgqueuer p
       SET headers = coalesce(CASE WHEN jsonb_typeof(p.headers) = 'object' THEN p.headers END, '{}'::jsonb)
             || jsonb_build_object('aizk',
                  coalesce(CASE WHEN jsonb_typeof(p.headers->'aizk') = 'object' THEN p.headers->'aizk' END, '{}'::jsonb)
                  || jsonb_build_object('cancelRequestedAt', now(), 'cancelRequestedBy', $6::text))
      FROM win
     WHERE p.id = win.id AND p.status = 'picked'
    RETURNING p.id, p.entrypoint, p.queue_manager_id),
  notified AS (
    SELECT pg_notify('${NOTIFY_CHANNEL}', json_build_object(
             'channel', '${NOTIFY_CHANNEL}', 'ids', json_agg(g.id ORDER BY g.id),
             'sent_at', now(), 'type', 'cancellation_event')::text) AS n
      FROM (SELECT id, (row_number() OVER (ORDER BY id) - 1) / ${IDS_PER_NOTIFY} AS grp FROM marked) g
     GROUP BY g.grp)
  SELECT m.id::text AS id, m.entrypoint, m.queue_manager_id::text AS "queueManagerId"
    FROM marked m LEFT JOIN (SELECT count(*) AS n FROM notified) sent ON true
   ORDER BY m.id`

export const PREVIEW = `
  SELECT p.id::text AS id, p.entrypoint, p.queue_manager_id::text AS "queueManagerId", $6::text AS by
    FROM pgqueuer p JOIN (${WINDOW}) win USING (id)
   ORDER BY p.id`

/**
 * Which claimed ids a worker may cancel: NOTIFY needs no privilege, so a `cancellation_event` is
 * only a claim, checked here against rows the app role cannot write. Either the row is still this
 * worker's pick and carries the mark `aizk cancel --running` writes, or the row is gone and a
 * `canceled` log row says who removed it (PgQueuer's mark_job_as_cancelled deletes the job and logs
 * it before notifying). Ids this worker does not hold never reach this statement.
 */
export const VERIFY = {
  name: 'aizk_cancel_verify',
  text: `SELECT c.id::text AS id FROM unnest($1::bigint[]) AS c(id)
          WHERE EXISTS (SELECT 1 FROM pgqueuer
                         WHERE pgqueuer.id = c.id AND ${owned('pgqueuer', '$2')} AND pgqueuer.headers->'aizk' ? 'cancelRequestedAt')
             OR (NOT EXISTS (SELECT 1 FROM pgqueuer WHERE pgqueuer.id = c.id)
                 AND EXISTS (SELECT 1 FROM pgqueuer_log l WHERE l.job_id = c.id AND l.status = 'canceled'))`,
}

// Only a marked row leaves as canceled: whatever asked, the mark is the authority.
export const SETTLE = {
  name: 'aizk_cancel_settle',
  text: `WITH gone AS (
           DELETE FROM pgqueuer
            WHERE id = ANY ($1::bigint[]) AND ${owned('pgqueuer', '$2')} AND headers->'aizk' ? 'cancelRequestedAt'
           RETURNING id, priority, entrypoint, attempts, headers->'aizk'->>'cancelRequestedBy' AS by)
         INSERT INTO pgqueuer_log (job_id, status, priority, entrypoint, traceback)
         SELECT id, 'canceled', priority, entrypoint, jsonb_build_object(
                  'job_id', id,
                  'timestamp', now(),
                  'exception_type', 'JobCanceled',
                  'exception_message', 'canceled while running, by ' || coalesce(by, 'an operator'),
                  'traceback', '',
                  'additional_context', jsonb_build_object('action', 'canceled', 'by', by, 'attempts', attempts, 'whileRunning', true))
           FROM gone`,
}
