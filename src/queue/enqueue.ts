/**
 * Enqueue: one job or many in one statement, on the caller's client so the application's write
 * and its job commit or roll back together. A live dedupe key (queued, picked or held) returns
 * false for that item instead of raising; every other failure is a real error. The insert fires
 * PgQueuer's statement trigger, which notifies `ch_pgqueuer`.
 */
import type { Queryable } from '../db/queryable.js'
import { UsageError } from '../errors.js'
import { queueLogParity, withLogRows } from './log-parity.js'
import { encodePayload } from './payload.js'

export interface EnqueueOptions {
  priority?: number
  dedupeKey?: string | null
  /** When the job may run: a Date, or a delay in milliseconds from now. */
  executeAfter?: Date | number | null
  headers?: Record<string, unknown> | null
}

export interface EnqueueItem extends EnqueueOptions {
  entrypoint: string
  /** A JSON value (stored as JSON bytes) or raw bytes. */
  payload?: unknown
}

/**
 * The longest dedupe key, in UTF-8 bytes. The unique indexes on dedupe_key hold the whole key,
 * and a btree entry may not pass about 2.7 kB; a fan-out key of some fifty scopes still fits.
 */
export const MAX_DEDUPE_KEY_BYTES = 2048
/** The latest `execute_after`: later than this, PostgreSQL and ISO 8601 stop agreeing on a year. */
const LATEST_EXECUTE_AFTER_MS = Date.UTC(9999, 11, 31, 23, 59, 59)
/** Also write a `queued` log row per job, as PgQueuer does; default AIZK_QUEUE_LOG_PARITY. */
export interface EnqueueLogOption {
  logQueued?: boolean
}

function executeAfterOf(value: Date | number | null | undefined): Date | null {
  if (value === null || value === undefined) return null
  const when = value instanceof Date ? value : new Date(Date.now() + value)
  const ms = when.getTime()
  if (!Number.isFinite(ms) || ms > LATEST_EXECUTE_AFTER_MS) {
    throw new UsageError('execute-after is past 9999-12-31 or not a time at all', 'use a time before the year 10000, such as 30s, 2h, 7d or an ISO timestamp')
  }
  return when
}

function checkDedupeKey(key: string | null | undefined): void {
  if (key === null || key === undefined) return
  const bytes = Buffer.byteLength(key, 'utf8')
  if (bytes > MAX_DEDUPE_KEY_BYTES) {
    throw new UsageError(`dedupe key is ${bytes} bytes; at most ${MAX_DEDUPE_KEY_BYTES} are allowed`, 'use a shorter key, or a hash of the long one')
  }
}

const INSERT_ONE = `
  INSERT INTO pgqueuer (priority, entrypoint, payload, status, dedupe_key, execute_after, headers)
  VALUES ($1, $2, $3, 'queued', $4, coalesce($5, now()), $6)
  ON CONFLICT DO NOTHING
  RETURNING id`
const INSERT_ONE_LOGGED = withLogRows(`${INSERT_ONE}, priority, entrypoint`, 'queued', 'SELECT id FROM written')

const INSERT_MANY = `
  INSERT INTO pgqueuer (priority, entrypoint, payload, status, dedupe_key, execute_after, headers)
  SELECT p, e, pl, 'queued', k, coalesce(ea, now()), h
    FROM unnest($1::int[], $2::text[], $3::bytea[], $4::text[], $5::timestamptz[], $6::jsonb[])
         WITH ORDINALITY AS t(p, e, pl, k, ea, h, ord)
   ORDER BY ord
  ON CONFLICT DO NOTHING
  RETURNING id, dedupe_key`
const INSERT_MANY_LOGGED = withLogRows(`${INSERT_MANY}, priority, entrypoint`, 'queued', 'SELECT id, dedupe_key FROM written')

/** Enqueue one job. Returns its id (a bigint as a string), or false when its key is live. */
export async function enqueue(db: Queryable, item: EnqueueItem, opts: EnqueueLogOption = {}): Promise<string | false> {
  checkDedupeKey(item.dedupeKey)
  const logged = opts.logQueued ?? queueLogParity(db)
  const { rows } = await db.query<{ id: string }>({
    name: logged ? 'aizk_enqueue_one_logged' : 'aizk_enqueue_one',
    text: logged ? INSERT_ONE_LOGGED : INSERT_ONE,
    values: [
      item.priority ?? 0,
      item.entrypoint,
      encodePayload(item.payload),
      item.dedupeKey ?? null,
      executeAfterOf(item.executeAfter),
      item.headers ? JSON.stringify(item.headers) : null,
    ],
  })
  return rows.length ? String(rows[0].id) : false
}

/** Enqueue many jobs in one statement; the result has one entry per item, in order. */
export async function enqueueMany(db: Queryable, items: EnqueueItem[], opts: EnqueueLogOption = {}): Promise<(string | false)[]> {
  if (items.length === 0) return []
  for (const item of items) checkDedupeKey(item.dedupeKey)
  const logged = opts.logQueued ?? queueLogParity(db)
  const { rows } = await db.query<{ id: string; dedupe_key: string | null }>({
    name: logged ? 'aizk_enqueue_many_logged' : 'aizk_enqueue_many',
    text: logged ? INSERT_MANY_LOGGED : INSERT_MANY,
    values: [
      items.map((i) => i.priority ?? 0),
      items.map((i) => i.entrypoint),
      items.map((i) => encodePayload(i.payload)),
      items.map((i) => i.dedupeKey ?? null),
      items.map((i) => executeAfterOf(i.executeAfter)),
      items.map((i) => (i.headers ? JSON.stringify(i.headers) : null)),
    ],
  })
  // RETURNING yields inserted rows in insertion order; only keyed items can have been skipped.
  const out: (string | false)[] = []
  let next = 0
  for (const item of items) {
    const row = rows[next]
    const key = item.dedupeKey ?? null
    if (row && row.dedupe_key === key) {
      out.push(String(row.id))
      next++
    } else {
      out.push(false)
    }
  }
  return out
}
