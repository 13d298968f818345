/**
 * Finished jobs arriving in pgqueuer_log (the dashboard's live list). Ids are read as text (a
 * bigint for JavaScript), so every ORDER BY names the table's column: a bare `id` would sort by
 * the text output column, where 1000 comes before 999.
 */

export const LATEST_LOG_ID = 'SELECT max(id)::text AS id FROM pgqueuer_log'

export const READ_OUTCOMES_AFTER = `SELECT t.id::text AS id, t.job_id::text AS job_id, t.entrypoint, t.status::text AS status, t.created FROM (
         SELECT l.id, l.job_id, l.entrypoint, l.status, l.created FROM pgqueuer_log l
          WHERE l.status NOT IN ('queued', 'picked') ORDER BY l.id DESC LIMIT $1) t
        ORDER BY t.id`

export const READ_OUTCOMES_SINCE = `SELECT l.id::text AS id, l.job_id::text AS job_id, l.entrypoint, l.status::text AS status, l.created FROM pgqueuer_log l
          WHERE l.id > $2::bigint AND l.status NOT IN ('queued', 'picked') ORDER BY l.id LIMIT $1`
