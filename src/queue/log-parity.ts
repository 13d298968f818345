/**
 * PgQueuer writes a `queued` log row on enqueue and a `picked` one on pick; aizk writes them
 * only with AIZK_QUEUE_LOG_PARITY (docs/pgqueuer-interop.md has the measured cost). This wraps
 * an INSERT or UPDATE ... RETURNING id, priority, entrypoint so it also logs each row it returns.
 */
import { loadSettings } from '../settings.js'

/** The process's setting, read once. */
let cached: boolean | undefined
export function queueLogParity(): boolean {
  cached ??= loadSettings().queueLogParity === true
  return cached
}

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
