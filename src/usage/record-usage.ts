/**
 * Usage accounting: one event per capture key (a replay counts once), and on its first arrival
 * the rollup per exact scope set, day (UTC) and kind. Runs on the caller's client inside
 * User.system(scopes): both tables are under row security.
 */
import type { Queryable } from '../db/queryable.js'

export interface UsageEvent {
  captureKey: string
  scopes: readonly string[]
  kind: string
  quantity: number
  occurredAt: Date
}

/** True when the event was new (and counted), false when its capture key was seen before. */
export async function recordUsage(db: Queryable, e: UsageEvent): Promise<boolean> {
  const { rows } = await db.query<{ counted: boolean }>(
    `WITH ev AS (
       INSERT INTO aizk_usage_event (capture_key, scopes, kind, quantity, occurred_at)
       VALUES ($1, $2::uuid[], $3, $4, $5)
       ON CONFLICT (capture_key) DO NOTHING
       RETURNING scopes, kind, quantity, (occurred_at AT TIME ZONE 'UTC')::date AS day
     ), rolled AS (
       INSERT INTO aizk_usage_daily AS d (scopes, day, kind, quantity, events)
       SELECT scopes, day, kind, quantity, 1 FROM ev
       ON CONFLICT (scopes, day, kind) DO UPDATE
         SET quantity = d.quantity + EXCLUDED.quantity, events = d.events + 1, updated = now()
       RETURNING 1
     )
     SELECT EXISTS (SELECT 1 FROM rolled) AS counted`,
    [e.captureKey, e.scopes, e.kind, e.quantity, e.occurredAt],
  )
  return rows[0].counted
}

export interface UsageDay {
  scopes: string[]
  day: string
  kind: string
  quantity: number
  events: number
}

export async function readUsageDaily(db: Queryable, scopes: readonly string[]): Promise<UsageDay[]> {
  const { rows } = await db.query<{ scopes: string[]; day: string; kind: string; quantity: string; events: string }>(
    `SELECT scopes::text[] AS scopes, to_char(day, 'YYYY-MM-DD') AS day, kind, quantity::text, events::text
       FROM aizk_usage_daily WHERE scopes = $1::uuid[] ORDER BY day, kind`,
    [scopes],
  )
  return rows.map((r) => ({ scopes: r.scopes, day: r.day, kind: r.kind, quantity: Number(r.quantity), events: Number(r.events) }))
}
