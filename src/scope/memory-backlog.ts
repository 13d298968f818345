/**
 * What `aizk status` shows of the memory graph beside the queue: chunks waiting for projection,
 * dirty profiles, and each growth-gated pass's last decision. Operator totals across every
 * scope set, so like the roster this reads past row security, through the owner connection that
 * only the system user may open, and returns counts and scope arrays, never a memory row.
 */
import type pg from 'pg'
import { READ_GATE_DECISIONS, READ_PROJECTION_BACKLOG } from './sql/memory-backlog.js'
import { type IdentitySettings, User } from './user.js'

export interface GateDecision {
  job: string
  /** Sets whose last decision was to run, and to skip. */
  ran: number
  skipped: number
  /** The most recent decision of this pass, of any set. */
  last: { scopes: string[]; decision: 'ran' | 'skipped'; at: string; claims: number; atLastRun: number } | null
}

export interface MemoryBacklog {
  chunksPendingProjection: number
  dirtyProfiles: number
  gates: GateDecision[]
}

export async function memoryBacklog(pool: pg.Pool, settings: IdentitySettings): Promise<MemoryBacklog> {
  return User.system([], settings).owner(pool, async (db) => {
    const counts = await db.query<{ pending: string; dirty: string }>(READ_PROJECTION_BACKLOG)
    const gates = await db.query<{
      job: string
      ran: number
      skipped: number
      scopes: string[]
      decision: 'ran' | 'skipped'
      decided_at: Date
      observed_count: string
      fact_count: string
    }>(READ_GATE_DECISIONS)
    return {
      chunksPendingProjection: Number(counts.rows[0].pending),
      dirtyProfiles: Number(counts.rows[0].dirty),
      gates: gates.rows.map((r) => ({
        job: r.job,
        ran: r.ran,
        skipped: r.skipped,
        last: { scopes: r.scopes, decision: r.decision, at: r.decided_at.toISOString(), claims: Number(r.observed_count), atLastRun: Number(r.fact_count) },
      })),
    }
  })
}

/** One line per gate decision, for the plain frame and the dashboard. */
export function describeGate(g: GateDecision): string {
  const last = g.last
  const what = last
    ? `last ${last.decision} ${last.at.slice(0, 19)}Z for {${last.scopes.map((s) => s.slice(0, 8)).join(',')}} at ${last.claims} claims (${last.atLastRun} at its last run)`
    : 'no decision yet'
  return `${g.job}: ${what}; latest per set: ${g.ran} ran, ${g.skipped} skipped`
}
