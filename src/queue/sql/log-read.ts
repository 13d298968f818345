/**
 * The newest rows of pgqueuer_log, newest first by id (the order rows were written). Ids are read
 * as text (a bigint for JavaScript), so ORDER BY names the table's column: a bare `id` would sort
 * by the text output column, where 999 comes after 1110.
 */

export const COLUMNS = 'l.id::text AS id, l.created, l.job_id::text AS job_id, l.status::text AS status, l.priority, l.entrypoint, l.traceback'

export const READ_RECENT_LOG = `SELECT ${COLUMNS} FROM pgqueuer_log l ORDER BY l.id DESC LIMIT $1`

export const READ_RECENT_FAILURES = `SELECT ${COLUMNS} FROM pgqueuer_log l WHERE l.status IN ('failed', 'exception') ORDER BY l.id DESC LIMIT $1`
