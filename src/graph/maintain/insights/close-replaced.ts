/**
 * Facts that a later value replaced (docs/memory-graph.md, "Time on every fact"): for a
 * single-valued fact (single-valued.ts) whose values the text dates apart ("Bruce Perens led
 * Debian from April 1996", "Ian Jackson led Debian from January 1998"), each value's claims are
 * closed by the next value's: `ended_by` names the claim that replaced them and, when their own
 * text gave no end, `valid_to` is when the next one began. Closed claims are kept (they were true
 * for their span; `recall --as-of` answers from them), never deleted, and still read by this pass,
 * so running it again changes nothing. Undated values, or values dated alike, are left to the
 * contradiction finder. "Y replaced X" dated D ends X's open roles ("X leads Debian") at D.
 */
import type { Queryable } from '../../../db/queryable.js'
import { type Closing, closeClaims, closeReplacedRoles } from '../sql/close-sql.js'
import { VALUES_BY_OBJECT, VALUES_BY_SUBJECT } from '../sql/insight-sql.js'
import { dateOrder, singleValuedPatterns, timelineOf } from './single-valued.js'

interface Group {
  ids: string[]
  values: string[]
  dates: (string | null)[]
}

/** The closings one fact's values call for, earliest value first. */
export function closingsOf(group: Group, maxObjects: number): Closing[] {
  const timeline = timelineOf(
    group.values.map((value, n) => ({ value, when: group.dates[n] ?? undefined })),
    maxObjects,
  )
  if (timeline.kind !== 'supersession') return []
  // The claim that starts each value: its earliest-dated one.
  const start = new Map<string, { id: string; date: string | null; order: number }>()
  group.values.forEach((value, n) => {
    const order = dateOrder(group.dates[n] ?? undefined)
    if (order === undefined) return
    const had = start.get(value)
    if (!had || order < had.order) start.set(value, { id: group.ids[n], date: group.dates[n], order })
  })
  const closings: Closing[] = []
  timeline.order.forEach((value, k) => {
    const next = start.get(timeline.order[k + 1])
    if (!next) return
    group.values.forEach((v, n) => {
      if (v === value) closings.push({ claimId: group.ids[n], endedBy: next.id, validTo: next.date })
    })
  })
  return closings
}

export async function closeReplacedFacts(db: Queryable, scopes: readonly string[], maxObjects: number): Promise<number> {
  const { subject, object } = singleValuedPatterns()
  const bySubject = await db.query<Group>(VALUES_BY_SUBJECT, [scopes, subject])
  const byObject = await db.query<Group>(VALUES_BY_OBJECT, [scopes, object])
  const closings = [...bySubject.rows, ...byObject.rows].flatMap((g) => closingsOf(g, maxObjects))
  return (await closeClaims(db, scopes, closings)) + (await closeReplacedRoles(db, scopes, object))
}
