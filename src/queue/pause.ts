/**
 * Paused entrypoints, kept in `aizk_entrypoint_pause`. Pausing stops every aizk
 * worker from picking the entrypoint's jobs (each leaves it out of its pick); enqueueing goes on.
 * The table's trigger notifies `aizk_control` on every change, so workers learn at commit.
 */
import type { Queryable } from '../db/queryable.js'
import { LIST_PAUSED, PAUSE_ENTRYPOINT, READ_PAUSE, RESUME_ENTRYPOINT } from './sql/pause.js'

/** The channel pause changes are announced on (aizk's own: PgQueuer's workers would not parse them). */
export const CONTROL_CHANNEL = 'aizk_control'

export interface PausedEntrypoint {
  entrypoint: string
  pausedAt: string
  pausedBy: string | null
  reason: string | null
}

interface PauseRow {
  entrypoint: string
  paused_at: Date
  paused_by: string | null
  reason: string | null
}

function toPaused(r: PauseRow): PausedEntrypoint {
  return { entrypoint: r.entrypoint, pausedAt: r.paused_at.toISOString(), pausedBy: r.paused_by, reason: r.reason }
}

/** Pause an entrypoint; `changed` is false when it was paused already (its row is kept as it was). */
export async function pauseEntrypoint(
  db: Queryable,
  entrypoint: string,
  opts: { by?: string | null; reason?: string | null } = {},
): Promise<{ changed: boolean; pause: PausedEntrypoint }> {
  const inserted = await db.query<PauseRow>(PAUSE_ENTRYPOINT, [entrypoint, opts.by ?? null, opts.reason ?? null])
  if (inserted.rows.length) return { changed: true, pause: toPaused(inserted.rows[0]) }
  const existing = await db.query<PauseRow>(READ_PAUSE, [entrypoint])
  if (existing.rows.length) return { changed: false, pause: toPaused(existing.rows[0]) }
  // Resumed between the two statements: try once more.
  return pauseEntrypoint(db, entrypoint, opts)
}

/** Resume an entrypoint; returns the pause it lifted, or null when it was not paused. */
export async function resumeEntrypoint(db: Queryable, entrypoint: string): Promise<PausedEntrypoint | null> {
  const { rows } = await db.query<PauseRow>(RESUME_ENTRYPOINT, [entrypoint])
  return rows.length ? toPaused(rows[0]) : null
}

/** Every paused entrypoint, by name. */
export async function listPaused(db: Queryable): Promise<PausedEntrypoint[]> {
  const { rows } = await db.query<PauseRow>(LIST_PAUSED)
  return rows.map(toPaused)
}
