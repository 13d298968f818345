/** PgQueuer's parity log rows, written by the statement that writes the jobs. */

/**
 * `statement` must RETURN id, priority and entrypoint (and may return more); the result is the
 * same rows, each also logged with `status`.
 */
export function withLogRows(statement: string, status: 'queued' | 'picked', select: string): string {
  return `WITH written AS (${statement}),
  logged AS (
    INSERT INTO pgqueuer_log (job_id, status, priority, entrypoint)
    SELECT id, '${status}', priority, entrypoint FROM written
  )
  ${select}`
}
