/**
 * Enqueue: one job or many in one statement, on the caller's client so the application's write
 * and its job commit or roll back together. A live dedupe key (queued, picked or held) returns
 * false for that item instead of raising; every other failure is a real error. The insert fires
 * PgQueuer's statement trigger, which notifies `ch_pgqueuer`.
 */
import type { Queryable } from '../db/queryable.js'
import { isScopedClient } from '../db/scoped-client.js'
import { UsageError } from '../errors.js'
import { traceSend } from '../tracing/send.js'
import { installedTracer } from '../tracing/tracer.js'
import { queueLogParity } from './log-parity.js'
import { encodePayload } from './payload.js'
import { withLogRows } from './sql/log-parity.js'

// A keyless row cannot conflict (its dedupe_key is NULL, outside both partial unique indexes; ids
// come from the sequence), so it skips ON CONFLICT: no arbiter probe and no speculative-insertion
// lock per row (about 13% of the server's insert CPU, docs/benchmarks.md). A keyed row keeps ON CONFLICT.
const INSERT_ONE_ROW = `
  INSERT INTO pgqueuer (priority, entrypoint, payload, status, dedupe_key, execute_after, headers)
  VALUES ($1, $2, $3, 'queued', $4, coalesce($5, now()), $6)`

const INSERT_ONE_KEYLESS = `${INSERT_ONE_ROW}
  RETURNING id`

const INSERT_ONE = `${INSERT_ONE_ROW}
  ON CONFLICT DO NOTHING
  RETURNING id`

const INSERT_ONE_KEYLESS_LOGGED = withLogRows(`${INSERT_ONE_KEYLESS}, priority, entrypoint`, 'queued', 'SELECT id FROM written')

const INSERT_ONE_LOGGED = withLogRows(`${INSERT_ONE}, priority, entrypoint`, 'queued', 'SELECT id FROM written')

/**
 * Many rows from parallel arrays. ROWS FROM pads a shorter input with NULLs, so a column every
 * item leaves unset travels as an empty array. JSON payloads travel as ONE json document
 * ($3, an array, one element per item; SQL NULL for a JSON null): serialising it is a single
 * JSON.stringify instead of a Buffer and a hex-escaped array element per item, and `json` keeps
 * each element's text exactly, so the stored bytes are JSON.stringify(payload)'s as before.
 * Raw-byte payloads use the bytea[] form ($7 instead of $3).
 */
const MANY_ROWS = `
  INSERT INTO pgqueuer (priority, entrypoint, payload, status, dedupe_key, execute_after, headers)
  SELECT coalesce(p, 0), e, coalesce(b, convert_to(nullif(j::text, 'null'), 'UTF8')), 'queued', k, coalesce(ea, now()), h
    FROM ROWS FROM (unnest($1::int[]), unnest($2::text[]), json_array_elements($3::json), unnest($4::text[]),
                    unnest($5::timestamptz[]), unnest($6::jsonb[]), unnest($7::bytea[]))
         WITH ORDINALITY AS t(p, e, j, k, ea, h, b, ord)
   ORDER BY ord`

const INSERT_MANY_KEYLESS = `${MANY_ROWS}
  RETURNING id`

const INSERT_MANY = `${MANY_ROWS}
  ON CONFLICT DO NOTHING
  RETURNING id, dedupe_key`

const INSERT_MANY_KEYLESS_LOGGED = withLogRows(`${INSERT_MANY_KEYLESS}, priority, entrypoint`, 'queued', 'SELECT id FROM written')

const INSERT_MANY_LOGGED = withLogRows(`${INSERT_MANY}, priority, entrypoint`, 'queued', 'SELECT id, dedupe_key FROM written')

/**
 * Inside a scoped transaction the app role inserts no queue rows itself: aizk_app_enqueue checks
 * each item against the transaction's proven write set (docs/security.md) and inserts them.
 */
const APP_ENQUEUE = `SELECT job_id AS id, job_key AS dedupe_key
  FROM aizk_app_enqueue($1::int[], $2::text[], $3::bytea[], $4::text[], $5::timestamptz[], $6::jsonb[], $7)`

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

const STATEMENTS = {
  one: { keyed: [INSERT_ONE, INSERT_ONE_LOGGED], keyless: [INSERT_ONE_KEYLESS, INSERT_ONE_KEYLESS_LOGGED] },
  many: { keyed: [INSERT_MANY, INSERT_MANY_LOGGED], keyless: [INSERT_MANY_KEYLESS, INSERT_MANY_KEYLESS_LOGGED] },
} as const

/** The prepared statement for this shape: its name and text. */
function statement(kind: 'one' | 'many', keyed: boolean, logged: boolean): { name: string; text: string } {
  const texts = STATEMENTS[kind][keyed ? 'keyed' : 'keyless']
  return { name: `aizk_enqueue_${kind}${keyed ? '' : '_keyless'}${logged ? '_logged' : ''}`, text: texts[logged ? 1 : 0] }
}

/** The column as an array, or an empty one when no item sets it (ROWS FROM reads NULLs). */
function column<T>(items: EnqueueItem[], pick: (item: EnqueueItem) => T | null): (T | null)[] {
  const out = items.map(pick)
  return out.some((v) => v !== null) ? out : []
}

/** Priorities, or an empty array when every item takes the default 0 (the SQL reads NULL as 0). */
function priorities(items: EnqueueItem[]): number[] {
  const out = items.map((i) => i.priority ?? 0)
  return out.some((p) => p !== 0) ? out : []
}

/** Whether JSON.stringify of the whole array serialises each payload as encodePayload would. */
function jsonPayloads(items: EnqueueItem[]): boolean {
  for (const i of items) {
    const t = typeof i.payload
    // Bytes go as bytea; a top-level function, symbol or bigint fails (or vanishes) in
    // JSON.stringify differently inside an array than alone, so encodePayload judges it.
    if (t === 'function' || t === 'symbol' || t === 'bigint' || Buffer.isBuffer(i.payload)) return false
  }
  return true
}

async function enqueueScoped(db: Queryable, items: EnqueueItem[], logged: boolean): Promise<(string | false)[]> {
  const { rows } = await db.query<{ id: string; dedupe_key: string | null }>({
    name: 'aizk_app_enqueue',
    text: APP_ENQUEUE,
    values: [
      items.map((i) => i.priority ?? 0),
      items.map((i) => i.entrypoint),
      items.map((i) => encodePayload(i.payload)),
      items.map((i) => i.dedupeKey ?? null),
      items.map((i) => executeAfterOf(i.executeAfter)),
      items.map((i) => (i.headers ? JSON.stringify(i.headers) : null)),
      logged,
    ],
  })
  return matchInserted(items, rows)
}

/**
 * Enqueue one job. Returns its id (a bigint as a string), or false when its key is live. With an
 * OpenTelemetry SDK installed, inside a `send` span whose context the job carries (docs/observability.md).
 */
export function enqueue(db: Queryable, item: EnqueueItem, opts: EnqueueLogOption = {}): Promise<string | false> {
  if (!installedTracer()) return insertOne(db, item, opts)
  return traceSend([item], async ([traced]) => [await insertOne(db, traced, opts)]).then(([id]) => id)
}

/** Enqueue many jobs in one statement; the result has one entry per item, in order. */
export function enqueueMany(db: Queryable, items: EnqueueItem[], opts: EnqueueLogOption = {}): Promise<(string | false)[]> {
  if (items.length === 0 || !installedTracer()) return insertMany(db, items, opts)
  return traceSend(items, (traced) => insertMany(db, traced, opts))
}

async function insertOne(db: Queryable, item: EnqueueItem, opts: EnqueueLogOption): Promise<string | false> {
  checkDedupeKey(item.dedupeKey)
  const logged = opts.logQueued ?? queueLogParity(db)
  if (isScopedClient(db)) return (await enqueueScoped(db, [item], logged))[0]
  const keyed = item.dedupeKey !== null && item.dedupeKey !== undefined
  const { rows } = await db.query<{ id: string }>({
    ...statement('one', keyed, logged),
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

async function insertMany(db: Queryable, items: EnqueueItem[], opts: EnqueueLogOption): Promise<(string | false)[]> {
  if (items.length === 0) return []
  for (const item of items) checkDedupeKey(item.dedupeKey)
  const logged = opts.logQueued ?? queueLogParity(db)
  if (isScopedClient(db)) return enqueueScoped(db, items, logged)
  const keyed = items.some((i) => i.dedupeKey !== null && i.dedupeKey !== undefined)
  const asJson = jsonPayloads(items)
  const { rows } = await db.query<{ id: string; dedupe_key?: string | null }>({
    ...statement('many', keyed, logged),
    values: [
      priorities(items),
      items.map((i) => i.entrypoint),
      asJson ? JSON.stringify(items.map((i) => i.payload ?? null)) : '[]',
      column(items, (i) => i.dedupeKey ?? null),
      column(items, (i) => executeAfterOf(i.executeAfter)),
      column(items, (i) => (i.headers ? JSON.stringify(i.headers) : null)),
      asJson ? [] : items.map((i) => encodePayload(i.payload)),
    ],
  })
  if (!keyed) return rows.map((r) => String(r.id))
  return matchInserted(items, rows)
}

/** One entry per item: its row's id, or false for a keyed item whose key was live. */
function matchInserted(items: EnqueueItem[], rows: { id: string; dedupe_key?: string | null }[]): (string | false)[] {
  // RETURNING yields inserted rows in insertion order; only keyed items can have been skipped.
  const out: (string | false)[] = []
  let next = 0
  for (const item of items) {
    const row = rows[next]
    const key = item.dedupeKey ?? null
    if (row && (row.dedupe_key ?? null) === key) {
      out.push(String(row.id))
      next++
    } else {
      out.push(false)
    }
  }
  return out
}
