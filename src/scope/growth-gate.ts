/**
 * The growth gate: a pass over a scope set's facts is skipped while the partition has not grown
 * past a threshold since the pass last ran. The watermark remembers, per job and exact set, the
 * fact count at that run. Counting uses equality (scopes = the set), not containment, so a pass
 * counts precisely its own partition, not everything visible to it. Runs on the caller's client,
 * inside its User.system(scopes) transaction: the watermark is under row security like the rest.
 */
import type { Queryable } from '../db/queryable.js'
import { normalizeScopes } from './scope-set.js'
import { NOTE_SKIP, READ_WATERMARK, RECORDED_FACT_COUNT, WRITE_WATERMARK } from './sql/growth-gate.js'

export interface GrowthGateOptions {
  /** The watermark's owner, normally the scheduled job's name. */
  job: string
  scopes: Iterable<string>
  /** Run only when the count grew by more than this many facts since the last run. */
  threshold: number
}

export type GrowthGateResult<T> = { ran: true; result: T; factCount: number; previous: number | null } | { ran: false; factCount: number; previous: number }

/** The partition's fact count: claims whose scopes equal the set exactly. */
export async function recordedFactCount(db: Queryable, scopes: readonly string[]): Promise<number> {
  const { rows } = await db.query<{ n: string }>(RECORDED_FACT_COUNT, [scopes])
  return Number(rows[0].n)
}

export async function readWatermark(db: Queryable, job: string, scopes: readonly string[]): Promise<number | null> {
  const { rows } = await db.query<{ fact_count: string }>(READ_WATERMARK, [job, scopes])
  return rows.length ? Number(rows[0].fact_count) : null
}

export async function writeWatermark(db: Queryable, job: string, scopes: readonly string[], factCount: number): Promise<void> {
  await db.query(WRITE_WATERMARK, [job, scopes, factCount])
}

/** A skip leaves the watermark where it was and only notes the decision (for `aizk status`). */
async function noteSkip(db: Queryable, job: string, scopes: readonly string[], factCount: number): Promise<void> {
  await db.query(NOTE_SKIP, [job, scopes, factCount])
}

/** Run `fn` when the partition grew past the threshold (or never ran), then move the watermark. */
export async function runIfGrown<T>(db: Queryable, opts: GrowthGateOptions, fn: () => Promise<T>): Promise<GrowthGateResult<T>> {
  const scopes = normalizeScopes(opts.scopes)
  const factCount = await recordedFactCount(db, scopes)
  const previous = await readWatermark(db, opts.job, scopes)
  if (previous !== null && factCount - previous <= opts.threshold) {
    await noteSkip(db, opts.job, scopes, factCount)
    return { ran: false, factCount, previous }
  }
  const result = await fn()
  await writeWatermark(db, opts.job, scopes, factCount)
  return { ran: true, result, factCount, previous }
}
