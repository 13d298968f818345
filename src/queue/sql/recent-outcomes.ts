/** Finished jobs arriving in pgqueuer_log (the dashboard's live list). */

export const LATEST_LOG_ID = 'SELECT max(id)::text AS id FROM pgqueuer_log'

export const READ_OUTCOMES_AFTER = `SELECT * FROM (SELECT id::text, job_id::text, entrypoint, status::text, created FROM pgqueuer_log
          WHERE status NOT IN ('queued', 'picked') ORDER BY id DESC LIMIT $1) t ORDER BY id::bigint`

export const READ_OUTCOMES_SINCE = `SELECT id::text, job_id::text, entrypoint, status::text, created FROM pgqueuer_log
          WHERE id > $2::bigint AND status NOT IN ('queued', 'picked') ORDER BY id LIMIT $1`
