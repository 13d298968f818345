/** The newest rows of pgqueuer_log. */

export const COLUMNS = 'id::text AS id, created, job_id::text AS job_id, status::text AS status, priority, entrypoint, traceback'

export const READ_RECENT_LOG = `SELECT ${COLUMNS} FROM pgqueuer_log ORDER BY created DESC, id DESC LIMIT $1`

export const READ_RECENT_FAILURES = `SELECT ${COLUMNS} FROM pgqueuer_log WHERE status IN ('failed', 'exception') ORDER BY created DESC, id DESC LIMIT $1`
