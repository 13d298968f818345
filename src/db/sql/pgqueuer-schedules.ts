/**
 * PgQueuer's pgqueuer_schedules, spoken the way PgQueuer speaks it
 * (docs/pgqueuer-interop.md#the-schedules-table): a row per (expression, entrypoint); a scheduler
 * claims a due row with SKIP LOCKED, flips it to picked and advances next_run, heartbeats it while
 * the tick runs, and sets it back to queued with last_run. A picked row whose heartbeat is older
 * than the stale window belongs to a dead scheduler and is claimed again. Each function takes the
 * client, so the caller owns the transaction. Every statement on the table is here, the
 * operators' overview (`readScheduleRows`) too.
 */
import type { Queryable } from '../queryable.js'

/** PgQueuer's own window for a picked schedule whose scheduler died. */
export const SCHEDULE_STALE_SECONDS = 30

export interface ScheduleKey {
  entrypoint: string
  /** As stored: PgQueuer's form (seconds last when there are six fields). */
  expression: string
}

export interface ScheduleRow extends ScheduleKey {
  id: number
  status: string | null
  nextRun: Date
  lastRun: Date | null
  heartbeat: Date
}

export interface DueSchedule extends ScheduleRow {
  /** True when the row was picked by a scheduler that stopped heartbeating. */
  stale: boolean
  dbNow: Date
}

/** Create the rows that do not exist yet; an existing row keeps its next_run and state. */
export async function ensureSchedules(db: Queryable, rows: (ScheduleKey & { nextRun: Date })[]): Promise<number> {
  if (rows.length === 0) return 0
  const res = await db.query(
    `INSERT INTO pgqueuer_schedules (expression, entrypoint, next_run)
     SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[])
     ON CONFLICT (expression, entrypoint) DO NOTHING`,
    [rows.map((r) => r.expression), rows.map((r) => r.entrypoint), rows.map((r) => r.nextRun)],
  )
  return res.rowCount ?? 0
}

/**
 * Remove the rows of these cron entrypoints that no longer match their job's expression (the
 * cron setting changed) or whose job is disabled (`expression` null), so they neither linger in
 * `aizk status` nor read as overdue. A row being fired right now is left for the next look.
 */
export async function removeStaleSchedules(db: Queryable, current: { entrypoint: string; expression: string | null }[]): Promise<number> {
  if (current.length === 0) return 0
  const res = await db.query(
    `DELETE FROM pgqueuer_schedules s
      USING unnest($1::text[], $2::text[]) AS c(entrypoint, expression)
      WHERE s.entrypoint = c.entrypoint
        AND s.expression IS DISTINCT FROM c.expression
        AND s.status IS DISTINCT FROM 'picked'`,
    [current.map((c) => c.entrypoint), current.map((c) => c.expression)],
  )
  return res.rowCount ?? 0
}

/** Lock the due rows among `keys` (skipping rows another scheduler holds). Run inside a transaction. */
export async function lockDueSchedules(db: Queryable, keys: ScheduleKey[], staleSeconds = SCHEDULE_STALE_SECONDS): Promise<DueSchedule[]> {
  if (keys.length === 0) return []
  const { rows } = await db.query(
    `SELECT id, expression, entrypoint, status, next_run, last_run, heartbeat, now() AS db_now,
            status = 'picked' AS stale
       FROM pgqueuer_schedules
      WHERE (entrypoint, expression) IN (SELECT * FROM unnest($1::text[], $2::text[]))
        AND ((status IS DISTINCT FROM 'picked' AND next_run <= now())
          OR (status = 'picked' AND heartbeat < now() - make_interval(secs => $3)))
      ORDER BY next_run
      FOR UPDATE SKIP LOCKED`,
    [keys.map((k) => k.entrypoint), keys.map((k) => k.expression), staleSeconds],
  )
  return rows.map((r) => ({ ...toRow(r), stale: r.stale === true, dbNow: r.db_now }))
}

/** Flip locked rows to picked with their advanced next_run and a fresh heartbeat. */
export async function markSchedulesPicked(db: Queryable, picks: { id: number; nextRun: Date }[]): Promise<void> {
  if (picks.length === 0) return
  await db.query(
    `UPDATE pgqueuer_schedules s
        SET status = 'picked', next_run = v.next_run, heartbeat = now(), updated = now()
       FROM unnest($1::bigint[], $2::timestamptz[]) AS v(id, next_run)
      WHERE s.id = v.id`,
    [picks.map((p) => p.id), picks.map((p) => p.nextRun)],
  )
}

export async function heartbeatSchedules(db: Queryable, ids: number[]): Promise<void> {
  if (ids.length === 0) return
  await db.query(`UPDATE pgqueuer_schedules SET heartbeat = now(), updated = now() WHERE id = ANY($1::bigint[])`, [ids])
}

/** The tick is done: back to queued, with last_run. */
export async function releaseSchedules(db: Queryable, ids: number[]): Promise<void> {
  if (ids.length === 0) return
  await db.query(`UPDATE pgqueuer_schedules SET status = 'queued', last_run = now(), updated = now() WHERE id = ANY($1::bigint[])`, [ids])
}

/** Milliseconds until the earliest next_run among `keys` (negative when overdue; null when none). */
export async function msUntilNextRun(db: Queryable, keys: ScheduleKey[]): Promise<number | null> {
  if (keys.length === 0) return null
  const { rows } = await db.query<{ ms: string | null }>(
    `SELECT (extract(epoch FROM min(next_run) - now()) * 1000)::float8 AS ms
       FROM pgqueuer_schedules
      WHERE (entrypoint, expression) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    [keys.map((k) => k.entrypoint), keys.map((k) => k.expression)],
  )
  return rows[0]?.ms === null || rows[0]?.ms === undefined ? null : Number(rows[0].ms)
}

export async function listSchedules(db: Queryable, entrypoints: string[]): Promise<ScheduleRow[]> {
  const { rows } = await db.query(
    `SELECT id, expression, entrypoint, status, next_run, last_run, heartbeat
       FROM pgqueuer_schedules WHERE entrypoint = ANY($1::text[]) ORDER BY next_run`,
    [entrypoints],
  )
  return rows.map(toRow)
}

function toRow(r: Record<string, unknown>): ScheduleRow {
  return {
    id: Number(r.id),
    expression: String(r.expression),
    entrypoint: String(r.entrypoint),
    status: (r.status as string | null) ?? null,
    nextRun: r.next_run as Date,
    lastRun: (r.last_run as Date | null) ?? null,
    heartbeat: r.heartbeat as Date,
  }
}

export interface ScheduleOverviewRow {
  entrypoint: string
  expression: string
  status: string | null
  next_run: Date
  last_run: Date | null
  /** Seconds since the last fire, or since the row was created before the first. */
  since: number
  now: Date
}

/** Every row (aizk's and other schedulers'), next fire first, for `aizk status`. */
export async function readScheduleRows(db: Queryable): Promise<ScheduleOverviewRow[]> {
  const { rows } = await db.query<ScheduleOverviewRow>(
    `SELECT entrypoint, expression, status::text AS status, next_run, last_run,
            extract(epoch FROM now() - coalesce(last_run, created))::float8 AS since, now() AS now
       FROM pgqueuer_schedules
      ORDER BY next_run, entrypoint
      LIMIT 1000`,
  )
  return rows
}
