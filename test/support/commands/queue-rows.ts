/** Rows put straight into the queue tables for command and stats tests (real SQL, no mocks). */
import type pg from 'pg'

/** Insert `n` held (failed) rows of an entrypoint; returns their ids in order. */
export async function insertHeld(
  db: pg.Pool | pg.Client,
  entrypoint: string,
  n: number,
  opts: { cycles?: number; lastError?: unknown; dedupePrefix?: string; priority?: number } = {},
): Promise<string[]> {
  const headers = opts.cycles !== undefined || opts.lastError !== undefined ? { aizk: { cycles: opts.cycles, lastError: opts.lastError }, other: 'kept' } : null
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO pgqueuer (priority, entrypoint, payload, status, attempts, headers, dedupe_key)
     SELECT $1, $2, convert_to('{}', 'utf8'), 'failed', 5, $3::jsonb, CASE WHEN $5::text IS NULL THEN NULL ELSE $5 || g END
       FROM generate_series(1, $4::int) g
     ORDER BY g
     RETURNING id::text`,
    [opts.priority ?? 0, entrypoint, headers ? JSON.stringify(headers) : null, n, opts.dedupePrefix ?? null],
  )
  return rows.map((r) => r.id)
}

/** Insert `n` queued rows of an entrypoint in one statement (generate_series). */
export async function insertQueued(
  db: pg.Pool | pg.Client,
  entrypoint: string,
  n: number,
  opts: { priority?: number; executeAfter?: string } = {},
): Promise<void> {
  await db.query(
    `INSERT INTO pgqueuer (priority, entrypoint, payload, status, execute_after)
     SELECT $1, $2, NULL, 'queued', coalesce($4::timestamptz, now()) FROM generate_series(1, $3::int)`,
    [opts.priority ?? 0, entrypoint, n, opts.executeAfter ?? null],
  )
}

/** Insert `n` log rows `ageDays` old (generate_series, one statement). */
export async function insertLog(db: pg.Pool | pg.Client, n: number, ageDays: number, entrypoint = 'aizk_usage_event'): Promise<void> {
  await db.query(
    `INSERT INTO pgqueuer_log (created, job_id, status, priority, entrypoint)
     SELECT now() - make_interval(days => $2::int) - g * interval '1 millisecond', g, 'successful', 0, $3
       FROM generate_series(1, $1::int) g`,
    [n, ageDays, entrypoint],
  )
}
