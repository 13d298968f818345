/** Held jobs for `aizk status`. */
import { CYCLES_SQL } from './requeue.js'

export const READ_HELD = `SELECT h.id::text AS id, h.entrypoint, h.priority, h.attempts, h.cycles, h.updated AS held_at,
            h.header_error, l.traceback AS log_error
       FROM unnest($1::text[]) AS e(entrypoint)
       CROSS JOIN LATERAL (
         SELECT id, entrypoint, priority, attempts, updated, ${CYCLES_SQL} AS cycles,
                headers->'aizk'->'lastError' AS header_error
           FROM pgqueuer
          WHERE status = 'failed' AND entrypoint = e.entrypoint
          ORDER BY entrypoint DESC, id DESC
          LIMIT $2
       ) h
       LEFT JOIN LATERAL (
         SELECT traceback FROM pgqueuer_log
          WHERE job_id = h.id AND status = 'failed' AND h.header_error IS NULL
          ORDER BY created DESC LIMIT 1
       ) l ON true
      ORDER BY h.id DESC
      LIMIT $2`
