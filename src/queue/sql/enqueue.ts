/** Enqueue: one row, many rows, logged or not, and the app role's door (aizk_app_enqueue). */
import { withLogRows } from './log-parity.js'

// A keyless row cannot conflict (its dedupe_key is NULL, outside both partial unique indexes; ids
// come from the sequence), so it skips ON CONFLICT: no arbiter probe and no speculative-insertion
// lock per row (about 13% of the server's insert CPU, docs/benchmarks.md). A keyed row keeps ON CONFLICT.
export const INSERT_ONE_ROW = `
  INSERT INTO pgqueuer (priority, entrypoint, payload, status, dedupe_key, execute_after, headers)
  VALUES ($1, $2, $3, 'queued', $4, coalesce($5, now()), $6)`

export const INSERT_ONE_KEYLESS = `${INSERT_ONE_ROW}
  RETURNING id`

export const INSERT_ONE = `${INSERT_ONE_ROW}
  ON CONFLICT DO NOTHING
  RETURNING id`

export const INSERT_ONE_KEYLESS_LOGGED = withLogRows(`${INSERT_ONE_KEYLESS}, priority, entrypoint`, 'queued', 'SELECT id FROM written')

export const INSERT_ONE_LOGGED = withLogRows(`${INSERT_ONE}, priority, entrypoint`, 'queued', 'SELECT id FROM written')

/**
 * Many rows from parallel arrays. ROWS FROM pads a shorter input with NULLs, so a column every
 * item leaves unset travels as an empty array. JSON payloads travel as ONE json document
 * ($3, an array, one element per item; SQL NULL for a JSON null): serialising it is a single
 * JSON.stringify instead of a Buffer and a hex-escaped array element per item, and `json` keeps
 * each element's text exactly, so the stored bytes are JSON.stringify(payload)'s as before.
 * Raw-byte payloads use the bytea[] form ($7 instead of $3).
 */
export const MANY_ROWS = `
  INSERT INTO pgqueuer (priority, entrypoint, payload, status, dedupe_key, execute_after, headers)
  SELECT coalesce(p, 0), e, coalesce(b, convert_to(nullif(j::text, 'null'), 'UTF8')), 'queued', k, coalesce(ea, now()), h
    FROM ROWS FROM (unnest($1::int[]), unnest($2::text[]), json_array_elements($3::json), unnest($4::text[]),
                    unnest($5::timestamptz[]), unnest($6::jsonb[]), unnest($7::bytea[]))
         WITH ORDINALITY AS t(p, e, j, k, ea, h, b, ord)
   ORDER BY ord`

export const INSERT_MANY_KEYLESS = `${MANY_ROWS}
  RETURNING id`

export const INSERT_MANY = `${MANY_ROWS}
  ON CONFLICT DO NOTHING
  RETURNING id, dedupe_key`

export const INSERT_MANY_KEYLESS_LOGGED = withLogRows(`${INSERT_MANY_KEYLESS}, priority, entrypoint`, 'queued', 'SELECT id FROM written')

export const INSERT_MANY_LOGGED = withLogRows(`${INSERT_MANY}, priority, entrypoint`, 'queued', 'SELECT id, dedupe_key FROM written')

/**
 * Inside a scoped transaction the app role inserts no queue rows itself: aizk_app_enqueue checks
 * each item against the transaction's proven write set (docs/security.md) and inserts them.
 */
export const APP_ENQUEUE = `SELECT job_id AS id, job_key AS dedupe_key
  FROM aizk_app_enqueue($1::int[], $2::text[], $3::bytea[], $4::text[], $5::timestamptz[], $6::jsonb[], $7)`
