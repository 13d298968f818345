/** aizk_entrypoint_pause: pause, resume, list. */

export const PAUSE_ENTRYPOINT = `INSERT INTO aizk_entrypoint_pause (entrypoint, paused_by, reason) VALUES ($1, $2, $3)
     ON CONFLICT (entrypoint) DO NOTHING
     RETURNING entrypoint, paused_at, paused_by, reason`

export const READ_PAUSE = 'SELECT entrypoint, paused_at, paused_by, reason FROM aizk_entrypoint_pause WHERE entrypoint = $1'

export const RESUME_ENTRYPOINT = 'DELETE FROM aizk_entrypoint_pause WHERE entrypoint = $1 RETURNING entrypoint, paused_at, paused_by, reason'

export const LIST_PAUSED = 'SELECT entrypoint, paused_at, paused_by, reason FROM aizk_entrypoint_pause ORDER BY entrypoint'
