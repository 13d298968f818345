/**
 * Held jobs searched by their error (the dashboard's held page): the error text of a row is its
 * headers.aizk.lastError when the worker kept one, else the traceback of its latest `failed` log
 * row (as `aizk status` shows it), rendered to one string the way describeError does.
 */
import { filterSql } from './job-filter.js'
import { CYCLES_SQL } from './requeue.js'

/** A stored error (jsonb `e`) as text: a string as is, PgQueuer's record or {type, message} as "type: message". */
function errorText(e: string): string {
  return `CASE jsonb_typeof(${e})
      WHEN 'string' THEN ${e} #>> '{}'
      WHEN 'object' THEN nullif(concat_ws(': ',
        nullif(coalesce(${e}->>'exception_type', ${e}->>'type', ${e}->>'name'), ''),
        nullif(coalesce(${e}->>'exception_message', ${e}->>'message', ${e}->>'error'), '')), '')
      END`
}

/** Held rows with their error text, matching the job filter ($1-$3), the error text ($4, case-insensitive substring) and priorities ($5). */
const MATCHING = `SELECT p.id, p.entrypoint, p.priority, p.attempts, p.created, p.updated, ${CYCLES_SQL.replaceAll('headers', 'p.headers')} AS cycles,
         coalesce(${errorText(`p.headers->'aizk'->'lastError'`)}, ${errorText('l.traceback')}, l.traceback::text) AS error
    FROM pgqueuer p
    LEFT JOIN LATERAL (
      SELECT traceback FROM pgqueuer_log
       WHERE job_id = p.id AND status = 'failed' AND p.headers->'aizk'->'lastError' IS NULL
       ORDER BY created DESC LIMIT 1
    ) l ON true
   WHERE p.status = 'failed' AND ${filterSql(1, (c) => `p.${c}`)}`

const SEARCHED = `WITH m AS (${MATCHING})
  SELECT * FROM m
   WHERE ($4::text IS NULL OR strpos(lower(coalesce(m.error, '')), lower($4::text)) > 0)
     AND ($5::int[] IS NULL OR m.priority = ANY($5::int[]))`

export const COUNT_SEARCHED = `SELECT count(*) AS n FROM (${SEARCHED}) s`

/** Errors grouped by their first line, most frequent first; $6 caps the groups. */
export const GROUP_SEARCHED = `SELECT coalesce(split_part(s.error, E'\\n', 1), '') AS first_line, count(*) AS n,
         min(s.id)::text AS oldest_id, max(s.updated) AS latest
    FROM (${SEARCHED}) s
   GROUP BY 1
   ORDER BY n DESC, first_line
   LIMIT $6`

/** A page of matching held rows in id order after $6 (null: from the start), $7 rows. */
export const PAGE_SEARCHED = `SELECT s.id::text AS id, s.entrypoint, s.priority, s.attempts, s.cycles, s.created, s.updated,
         extract(epoch FROM now() - s.updated)::float8 AS age, s.error
    FROM (${SEARCHED}) s
   WHERE $6::bigint IS NULL OR s.id > $6::bigint
   ORDER BY s.id
   LIMIT $7`

/** Queued rows not yet due, per entrypoint ($1), through aizk_delayed_ep_ea_idx. */
export const COUNT_SCHEDULED = `SELECT e.entrypoint, c.n FROM unnest($1::text[]) AS e(entrypoint)
   CROSS JOIN LATERAL (
     SELECT count(*) AS n FROM pgqueuer
      WHERE status = 'queued' AND execute_after > created AND entrypoint = e.entrypoint AND execute_after > now()
   ) c`

/**
 * The searches read every held row the filter's entrypoints and age leave (an error text can
 * only be matched by reading it), so their plans cost enough to be JIT-compiled, which takes
 * longer than the read itself: they run in a read-only transaction with JIT off.
 */
export const BEGIN_HELD_SEARCH = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL jit = off'
