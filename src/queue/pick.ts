/**
 * The pick: one round trip claims a batch for one worker through `aizk_pick`
 * (src/db/definitions/functions/aizk_pick.sql), which holds the rules of docs/job-lifecycle.md#pick: priority desc then id, ready rows only, SKIP
 * LOCKED, bound entrypoints only, global per-entrypoint limits, and stale picks of owners proven
 * dead re-picked as an attempt (docs/pgqueuer-interop.md: aizk workers by the heartbeat
 * timeout, foreign queue managers only by the longer foreign timeout).
 */
import type { Queryable } from '../db/queryable.js'
import { FOREIGN_HEARTBEAT_TIMEOUT_SECONDS } from '../settings.js'

/**
 * The pick is only a lease: its commit does not wait for the WAL flush
 * (docs/job-lifecycle.md#durability-of-a-pick). A crash that loses it leaves the rows `queued`
 * and they run again, as after a worker killed mid-job; any later synchronous commit on the
 * server (an enqueue, a completion) flushes it first. The filter runs once per picked row, so it
 * is set exactly when the pick took rows; it matters only at commit. aizk_pick's p_done is left
 * at its default (kept for 0.1.0 workers; drop in 0.3.0), so the later arguments go by name.
 */
export const PICK_LEASE = {
  name: 'aizk_pick_lease',
  text: "SELECT * FROM aizk_pick($1, $2, $3, $4, $5, p_foreign_stale_seconds => $6, p_log_picks => $7) WHERE set_config('synchronous_commit', 'off', true) IS NOT NULL",
}

export interface PickedJob {
  id: string
  priority: number
  entrypoint: string
  payload: Buffer | null
  headers: Record<string, unknown> | null
  /** Failed runs so far (a re-pick after a dead worker counts as one). */
  attempts: number
  /** When the job became ready (epoch ms): the later of created and execute_after. */
  readyAtMs: number
  /** Re-picked from a worker whose heartbeat went stale. */
  recovered: boolean
  /** Date.now() when the pick came back: the row's heartbeat is at least that fresh (unset: unknown). */
  pickedAtMs?: number
}

export interface BoundEntrypoint {
  entrypoint: string
  /** 0 = unbounded. */
  concurrencyLimit: number
}

/** The arguments that do not change between picks, encoded once. */
export interface PickPlan {
  queueManagerId: string
  entrypoints: string
  limits: string
  /** Picks of queue managers aizk does not know are stale only past this (0 = never). */
  foreignStaleSeconds: number
  /** Write a `picked` log row per pick, as PgQueuer does. */
  logPicks: boolean
}

export interface PickPlanOptions {
  foreignStaleSeconds?: number
  logPicks?: boolean
}

/** The plan options a worker's settings ask for (a library caller may leave them unset). */
export function pickOptionsFrom(s: { foreignHeartbeatTimeoutSeconds?: number; queueLogParity?: boolean }): PickPlanOptions {
  return { foreignStaleSeconds: s.foreignHeartbeatTimeoutSeconds ?? FOREIGN_HEARTBEAT_TIMEOUT_SECONDS, logPicks: s.queueLogParity ?? false }
}

export function planPick(queueManagerId: string, bound: BoundEntrypoint[], opts: PickPlanOptions = {}): PickPlan {
  // Sorted by name: advisory locks of limited entrypoints are always taken in one order.
  const sorted = [...bound].sort((a, b) => (a.entrypoint < b.entrypoint ? -1 : a.entrypoint > b.entrypoint ? 1 : 0))
  return {
    queueManagerId,
    entrypoints: `{${sorted.map((b) => `"${b.entrypoint.replace(/["\\]/g, '\\$&')}"`).join(',')}}`,
    limits: `{${sorted.map((b) => b.concurrencyLimit).join(',')}}`,
    foreignStaleSeconds: opts.foreignStaleSeconds ?? 0,
    logPicks: opts.logPicks ?? false,
  }
}

interface PickRow {
  id: string
  priority: number
  entrypoint: string
  payload: Buffer | null
  headers: Record<string, unknown> | null
  attempts: number
  ready_at_ms: number
  recovered: boolean
}

/**
 * Claim up to `batchSize` jobs; `staleSeconds` > 0 also re-picks picks whose heartbeat is older.
 * `staleSeconds` applies to picks of registered aizk workers; others wait for the plan's
 * foreign timeout.
 */
export async function pickJobs(db: Queryable, plan: PickPlan, batchSize: number, staleSeconds: number): Promise<PickedJob[]> {
  const { rows } = await db.query<PickRow>({
    ...PICK_LEASE,
    values: [batchSize, plan.queueManagerId, plan.entrypoints, plan.limits, staleSeconds, plan.foreignStaleSeconds, plan.logPicks],
  })
  const out = new Array<PickedJob>(rows.length)
  const pickedAtMs = Date.now()
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]
    out[i] = {
      id: r.id,
      priority: r.priority,
      entrypoint: r.entrypoint,
      payload: r.payload,
      headers: r.headers,
      attempts: r.attempts,
      readyAtMs: r.ready_at_ms,
      recovered: r.recovered,
      pickedAtMs,
    }
  }
  return out
}
