/**
 * The filters that requeue, discard and cancel share: entrypoints, ids and age, matched inside
 * the SQL so one noisy entrypoint cannot crowd the others out of a window. Age is how long a row
 * has been in its current state (`updated`: when it was held, enqueued or requeued, picked).
 */
import type { Queryable } from '../db/queryable.js'
import { COUNT_MATCHING, ENTRYPOINTS_IN_USE, IDS_NOT_IN } from './sql/job-filter.js'

export { filterSql } from './sql/job-filter.js'

export interface JobFilter {
  /** Only these entrypoints; none = every entrypoint. */
  entrypoints?: string[]
  /** Only these job ids. */
  ids?: string[]
  /** Only rows unchanged for at least this many seconds. */
  olderThanSeconds?: number
}

export type LiveStatus = 'queued' | 'picked' | 'failed'

/** Rows per statement when requeue, discard or cancel walk a backlog: short locks, progress between windows. */
export const ACTION_WINDOW = 1000

/** A window's size must be a whole number of rows, at least one. */
export function checkWindowLimit(limit: number, what: string): void {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`${what} must be a whole number >= 1, got ${limit}`)
}

/** The filter's three parameters, in filterSql's order. */
export function filterParams(f: JobFilter): unknown[] {
  return [f.entrypoints?.length ? f.entrypoints : null, f.ids?.length ? f.ids : null, f.olderThanSeconds ?? null]
}

/** How many rows in `status` match (the whole backlog, not a window). */
export async function countMatching(db: Queryable, status: LiveStatus, f: JobFilter): Promise<number> {
  const { rows } = await db.query<{ n: string }>(COUNT_MATCHING, [status, ...filterParams(f)])
  return Number(rows[0].n)
}

/** The ids among `ids` whose row is missing or in none of `statuses`, with the status found. */
export async function idsNotIn(db: Queryable, ids: string[], statuses: LiveStatus[]): Promise<{ id: string; status: string | null }[]> {
  if (ids.length === 0) return []
  const { rows } = await db.query<{ id: string; status: string | null }>(IDS_NOT_IN, [ids, statuses])
  return rows
}

/** A row's status as operators say it: `failed` is held. */
export function statusWord(status: string | null): string {
  if (status === null) return 'no such job'
  return status === 'failed' ? 'held' : status
}

/**
 * Walk a backlog `total` rows at most, `chunk` per statement, each window starting after the
 * last id of the one before: big operations stay short statements and can show progress.
 */
export async function inWindows<T extends { id: string }>(
  total: number,
  chunk: number,
  take: (limit: number, afterId: string | undefined) => Promise<T[]>,
  onProgress?: (done: number) => void,
): Promise<T[]> {
  let out: T[] = []
  let afterId: string | undefined
  while (out.length < total) {
    const batch = await take(Math.min(chunk, total - out.length), afterId)
    out = out.concat(batch)
    onProgress?.(out.length)
    if (batch.length === 0) break
    afterId = batch[batch.length - 1].id
  }
  return out
}

/**
 * Which of `names` are in use: with a queued, picked or held row (each probe through its status's
 * partial index), or bound by a registered aizk worker.
 */
export async function entrypointsInUse(db: Queryable, names: readonly string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set()
  const { rows } = await db.query<{ e: string }>(ENTRYPOINTS_IN_USE, [names])
  return new Set(rows.map((r) => r.e))
}
