/**
 * The final accounting of `npm run chaos` (bench/chaos.ts), read from the database alone: for
 * each job enqueued (chaos_enqueued), its successful log rows, the runs its handler recorded
 * (chaos_runs) and the row it left in pgqueuer, if any; and the rows behind any job that broke a
 * rule, as evidence.
 */
import type pg from 'pg'

export interface Tally {
  enqueued: number
  exactlyOnce: number
  /** Two or more successful log rows: must be 0. */
  completedTwice: string[]
  /** No successful log row and no row left in pgqueuer: must be 0. */
  lost: string[]
  /** A successful log row and no run recorded by the handler: must be 0. */
  succeededUnrun: string[]
  held: number
  /** Still queued or picked (only after a timeout). */
  unfinished: number
  runs: number
  /** Jobs whose handler recorded more than one run (an attempt cut short, then run again). */
  ranAgain: number
  /** Runs beyond the first, over every job. */
  extraRuns: number
  /** Failed attempts logged (`exception` rows): runs a restart or a kill cut short and retried. */
  exceptionRows: number
}

const PER_JOB = `
  SELECT e.id::text AS id, coalesce(ok.n, 0) AS successes, coalesce(r.n, 0) AS runs, q.status::text AS left_status
    FROM chaos_enqueued e
    LEFT JOIN (SELECT job_id, count(*)::int AS n FROM pgqueuer_log WHERE status = 'successful' GROUP BY job_id) ok ON ok.job_id = e.id
    LEFT JOIN (SELECT job_id, count(*)::int AS n FROM chaos_runs GROUP BY job_id) r ON r.job_id = e.id
    LEFT JOIN pgqueuer q ON q.id = e.id`

export async function tally(db: pg.Pool): Promise<Tally> {
  const { rows } = await db.query<{ id: string; successes: number; runs: number; left_status: string | null }>(PER_JOB)
  const t: Tally = {
    enqueued: rows.length,
    exactlyOnce: 0,
    completedTwice: [],
    lost: [],
    succeededUnrun: [],
    held: 0,
    unfinished: 0,
    runs: 0,
    ranAgain: 0,
    extraRuns: 0,
    exceptionRows: 0,
  }
  for (const r of rows) {
    if (r.successes === 1) t.exactlyOnce++
    if (r.successes > 1) t.completedTwice.push(r.id)
    if (r.successes === 0 && r.left_status === null) t.lost.push(r.id)
    if (r.successes > 0 && r.runs === 0) t.succeededUnrun.push(r.id)
    if (r.left_status === 'failed') t.held++
    if (r.left_status === 'queued' || r.left_status === 'picked') t.unfinished++
    t.runs += r.runs
    if (r.runs > 1) t.ranAgain++
    t.extraRuns += Math.max(0, r.runs - 1)
  }
  const ex = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pgqueuer_log WHERE status = 'exception'")
  t.exceptionRows = ex.rows[0].n
  return t
}

/** The log rows, recorded runs and queue row of up to 10 of `ids`, one line each. */
export async function evidence(db: pg.Pool, ids: string[]): Promise<string[]> {
  const some = ids.slice(0, 10)
  const log = await db.query(
    'SELECT job_id::text, id AS log_id, status::text, entrypoint, created, traceback IS NOT NULL AS has_traceback FROM pgqueuer_log WHERE job_id = ANY ($1::bigint[]) ORDER BY job_id, id',
    [some],
  )
  const runs = await db.query(
    'SELECT job_id::text, seq, entrypoint, attempts, pid, at FROM chaos_runs WHERE job_id = ANY ($1::bigint[]) ORDER BY job_id, seq',
    [some],
  )
  const left = await db.query(
    'SELECT id::text AS job_id, status::text, attempts, queue_manager_id::text, heartbeat FROM pgqueuer WHERE id = ANY ($1::bigint[]) ORDER BY id',
    [some],
  )
  const lines = [`${ids.length} job(s)${ids.length > some.length ? `, the first ${some.length}` : ''}: ${some.join(', ')}`]
  for (const r of log.rows) lines.push(`  pgqueuer_log ${JSON.stringify(r)}`)
  for (const r of runs.rows) lines.push(`  chaos_runs   ${JSON.stringify(r)}`)
  for (const r of left.rows) lines.push(`  pgqueuer     ${JSON.stringify(r)}`)
  return lines
}
