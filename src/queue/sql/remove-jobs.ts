/** Discarding held and canceling queued jobs; dropping queued jobs the pipeline made moot. */
import { windowSql } from './job-filter.js'
import { CYCLES_SQL } from './requeue.js'

export type Removal = { from: 'failed' | 'queued'; logAs: 'deleted' | 'canceled'; type: string; verb: string }

export function removeSql(r: Removal): string {
  return `WITH win AS (${windowSql(r.from)} FOR UPDATE SKIP LOCKED),
          gone AS (
            DELETE FROM pgqueuer p USING win
             WHERE p.id = win.id AND p.status = '${r.from}'
            RETURNING p.id, p.priority, p.entrypoint, p.attempts, ${CYCLES_SQL.replaceAll('headers', 'p.headers')} AS cycles),
          logged AS (
            INSERT INTO pgqueuer_log (job_id, status, priority, entrypoint, traceback)
            SELECT id, '${r.logAs}', priority, entrypoint, jsonb_build_object(
                     'job_id', id,
                     'timestamp', now(),
                     'exception_type', '${r.type}',
                     'exception_message', '${r.verb} by ' || coalesce($6::text, 'an operator'),
                     'traceback', '',
                     'additional_context', jsonb_build_object('action', '${r.verb}', 'by', $6::text, 'attempts', attempts, 'cycles', cycles))
              FROM gone
            RETURNING job_id)
          SELECT g.id::text AS id, g.entrypoint, g.attempts, g.cycles
            FROM gone g
           WHERE g.id IN (SELECT job_id FROM logged)
           ORDER BY g.id`
}

export function previewSql(r: Removal): string {
  return `SELECT p.id::text AS id, p.entrypoint, p.attempts, ${CYCLES_SQL.replaceAll('headers', 'p.headers')} AS cycles, $6::text AS by
            FROM pgqueuer p JOIN (${windowSql(r.from)}) win USING (id)
           ORDER BY p.id`
}

export const DROP_QUEUED_JOBS = 'SELECT aizk_drop_queued_jobs($1, $2::text[]) AS n'
