/**
 * Usage accounting: one event per capture key and exact scope set (a replay counts once; another
 * set's keys neither block it nor show through it), and on its first arrival
 * the rollup per exact scope set, day (UTC) and kind. Runs on the caller's client inside
 * User.system(scopes): both tables are under row security.
 */
import type { Queryable } from '../db/queryable.js'
import { READ_USAGE_DAILY, RECORD_USAGE } from './sql/record-usage.js'

export interface UsageEvent {
  captureKey: string
  scopes: readonly string[]
  kind: string
  quantity: number
  occurredAt: Date
}

/** True when the event was new (and counted), false when its set saw its capture key before. */
export async function recordUsage(db: Queryable, e: UsageEvent): Promise<boolean> {
  const { rows } = await db.query<{ counted: boolean }>(RECORD_USAGE, [e.captureKey, e.scopes, e.kind, e.quantity, e.occurredAt])
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
  const { rows } = await db.query<{ scopes: string[]; day: string; kind: string; quantity: string; events: string }>(READ_USAGE_DAILY, [scopes])
  return rows.map((r) => ({ scopes: r.scopes, day: r.day, kind: r.kind, quantity: Number(r.quantity), events: Number(r.events) }))
}
