/** One job's row and its log rows (`aizk jobs show`). */
import { CYCLES_SQL } from './requeue.js'

export const READ_STORY_ROW = `SELECT entrypoint, status::text, priority, attempts, ${CYCLES_SQL} AS cycles, dedupe_key, created, updated,
            execute_after, heartbeat, queue_manager_id::text, payload, headers
       FROM pgqueuer WHERE id = $1::bigint`

// ORDER BY names the table's id: a bare `id` would sort by the text output column.
export const READ_STORY_LOG = `SELECT l.id::text AS id, l.created, l.status::text AS status, l.priority, l.entrypoint, l.traceback
       FROM pgqueuer_log l WHERE l.job_id = $1::bigint ORDER BY l.created, l.id`
