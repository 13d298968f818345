/** One job's row and its log rows (`aizk jobs show`). */
import { CYCLES_SQL } from './requeue.js'

export const READ_STORY_ROW = `SELECT entrypoint, status::text, priority, attempts, ${CYCLES_SQL} AS cycles, dedupe_key, created, updated,
            execute_after, heartbeat, queue_manager_id::text, payload, headers
       FROM pgqueuer WHERE id = $1::bigint`

export const READ_STORY_LOG = `SELECT id::text, created, status::text, priority, entrypoint, traceback
       FROM pgqueuer_log WHERE job_id = $1::bigint ORDER BY created, id`
