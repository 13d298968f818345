/**
 * Held jobs for operators: the newest few per entrypoint through aizk_failed_ep_id_idx (never a
 * scan of every held row), each with its cycles and its last error: headers.aizk.lastError
 * when the worker kept one, else the traceback of the job's latest `failed` log row.
 */
import type { Queryable } from '../db/queryable.js'
import { READ_HELD } from './sql/stats-held.js'

export interface HeldJob {
  id: string
  entrypoint: string
  priority: number
  attempts: number
  cycles: number
  /** When the row was last updated (held at). */
  heldAt: string
  lastError: string | null
}

/** Render whatever shape a last error was stored in as one line. */
export function describeError(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'string') return value
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>
    const type = v.exception_type ?? v.type ?? v.name
    const message = v.exception_message ?? v.message ?? v.error
    if (type || message) return [type, message].filter((x) => x !== undefined && x !== null && x !== '').join(': ')
  }
  return JSON.stringify(value)
}

/** The newest held jobs of the given entrypoints, at most `limit` in all, newest first. */
export async function readHeld(db: Queryable, entrypoints: string[], limit = 20): Promise<HeldJob[]> {
  if (entrypoints.length === 0) return []
  const { rows } = await db.query<{
    id: string
    entrypoint: string
    priority: number
    attempts: number
    cycles: number
    held_at: Date
    header_error: unknown
    log_error: unknown
  }>(READ_HELD, [entrypoints, limit])
  return rows.map((r) => ({
    id: r.id,
    entrypoint: r.entrypoint,
    priority: r.priority,
    attempts: r.attempts,
    cycles: Number(r.cycles),
    heldAt: r.held_at.toISOString(),
    lastError: describeError(r.header_error ?? r.log_error),
  }))
}
