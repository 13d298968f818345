/**
 * Held jobs at scale for the dashboard: count, page and group them by entrypoint, age and error
 * text (a case-insensitive substring of the first error line or the whole error), and act on
 * every match: requeue or discard walk the matches ACTION_WINDOW ids at a time through the
 * queue's own requeueFailed and discardHeld, so each window keeps their locking, logging and
 * notification, and a row taken meanwhile by another command is skipped, not moved twice.
 */
import type pg from 'pg'
import type { Queryable } from '../db/queryable.js'
import { withTransaction } from '../db/sql/transaction.js'
import { ACTION_WINDOW, filterParams, type JobFilter } from './job-filter.js'
import { discardHeld } from './remove-jobs.js'
import { requeueFailed } from './requeue.js'
import { BEGIN_HELD_SEARCH, COUNT_SCHEDULED, COUNT_SEARCHED, GROUP_SEARCHED, PAGE_SEARCHED } from './sql/held-search.js'

export interface HeldSearch extends Omit<JobFilter, 'ids'> {
  /** Only rows whose error contains this text (any case). */
  errorText?: string
  /** Only these priorities; none = every priority. */
  priorities?: number[]
}

export interface FoundHeld {
  id: string
  entrypoint: string
  priority: number
  attempts: number
  cycles: number
  created: string
  updated: string
  ageSeconds: number
  /** The whole error as stored (may span lines); null when none was kept. */
  error: string | null
}

export interface ErrorGroup {
  /** The error's first line ('' when none was kept). */
  firstLine: string
  count: number
  oldestId: string
  latest: string
}

function params(f: HeldSearch): unknown[] {
  return [
    ...filterParams({ entrypoints: f.entrypoints, olderThanSeconds: f.olderThanSeconds }),
    f.errorText?.trim() || null,
    f.priorities?.length ? f.priorities : null,
  ]
}

export type Db = pg.Pool | pg.ClientBase

export interface HeldPage {
  jobs: FoundHeld[]
  nextAfter: string | null
}

/** What the held page shows, from one snapshot: a page of matches, how many match in all, the error groups. */
export function searchHeld(
  db: Db,
  f: HeldSearch,
  afterId: string | undefined,
  limit: number,
  groups = 25,
): Promise<HeldPage & { matching: number; groups: ErrorGroup[] }> {
  return withTransaction(
    db,
    async (c) => ({ ...(await pageOf(c, f, afterId, limit)), matching: await countOf(c, f), groups: await groupsOf(c, f, groups) }),
    BEGIN_HELD_SEARCH,
  )
}

/** How many held jobs match (every one, not a page). */
export function countHeldMatching(db: Db, f: HeldSearch): Promise<number> {
  return withTransaction(db, (c) => countOf(c, f), BEGIN_HELD_SEARCH)
}

/** One page of matching held jobs, oldest id first, and the cursor of the next. */
export function findHeld(db: Db, f: HeldSearch, afterId: string | undefined, limit: number): Promise<HeldPage> {
  return withTransaction(db, (c) => pageOf(c, f, afterId, limit), BEGIN_HELD_SEARCH)
}

async function countOf(db: Queryable, f: HeldSearch): Promise<number> {
  const { rows } = await db.query<{ n: string }>(COUNT_SEARCHED, params(f))
  return Number(rows[0].n)
}

async function groupsOf(db: Queryable, f: HeldSearch, limit: number): Promise<ErrorGroup[]> {
  const { rows } = await db.query<{ first_line: string; n: string; oldest_id: string; latest: Date }>(GROUP_SEARCHED, [...params(f), limit])
  return rows.map((r) => ({ firstLine: r.first_line, count: Number(r.n), oldestId: r.oldest_id, latest: r.latest.toISOString() }))
}

async function pageOf(db: Queryable, f: HeldSearch, afterId: string | undefined, limit: number): Promise<HeldPage> {
  const { rows } = await db.query<{
    id: string
    entrypoint: string
    priority: number
    attempts: number
    cycles: number
    created: Date
    updated: Date
    age: number
    error: string | null
  }>(PAGE_SEARCHED, [...params(f), afterId ?? null, limit])
  const jobs = rows.map((r) => ({
    id: r.id,
    entrypoint: r.entrypoint,
    priority: r.priority,
    attempts: r.attempts,
    cycles: Number(r.cycles),
    created: r.created.toISOString(),
    updated: r.updated.toISOString(),
    ageSeconds: r.age,
    error: r.error,
  }))
  return { jobs, nextAfter: jobs.length === limit ? jobs[jobs.length - 1].id : null }
}

/**
 * Requeue or discard up to `limit` held jobs matching `f`, oldest first: each window selects the
 * next ACTION_WINDOW matching ids and hands them to requeueFailed / discardHeld by id.
 */
export async function actOnHeldMatching(
  db: Db,
  action: 'requeue' | 'discard',
  f: HeldSearch,
  opts: { limit: number; by: string | null },
): Promise<{ id: string; entrypoint: string }[]> {
  const done: { id: string; entrypoint: string }[] = []
  let afterId: string | undefined
  while (done.length < opts.limit) {
    const { jobs } = await findHeld(db, f, afterId, Math.min(ACTION_WINDOW, opts.limit - done.length))
    if (jobs.length === 0) break
    const ids = jobs.map((j) => j.id)
    const moved = action === 'requeue' ? await requeueFailed(db, { ids, limit: ids.length }) : await discardHeld(db, { ids, limit: ids.length, by: opts.by })
    done.push(...moved.map((m) => ({ id: m.id, entrypoint: m.entrypoint })))
    afterId = ids[ids.length - 1]
  }
  return done
}

/** Queued jobs not yet due (execute_after in the future), per entrypoint given. */
export async function countScheduled(db: Queryable, entrypoints: string[]): Promise<Map<string, number>> {
  if (entrypoints.length === 0) return new Map()
  const { rows } = await db.query<{ entrypoint: string; n: string }>(COUNT_SCHEDULED, [entrypoints])
  return new Map(rows.map((r) => [r.entrypoint, Number(r.n)]))
}
