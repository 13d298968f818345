/** Duplicate live dedupe keys found and resolved before aizk's dedupe index is built. */

export const DEDUPE_INDEX_PENDING = "select to_regclass('pgqueuer') is not null and to_regclass('aizk_dedupe_key_live') is null as pending"

export const FIND_DEDUPE_CONFLICTS = `SELECT dedupe_key, array_agg(id::text ORDER BY id) AS ids, array_agg(status::text ORDER BY id) AS statuses
       FROM pgqueuer
      WHERE status::text IN ('queued', 'picked', 'failed') AND dedupe_key IS NOT NULL
      GROUP BY dedupe_key HAVING count(*) > 1
      ORDER BY dedupe_key
      LIMIT $1`

export const RESOLVE_DEDUPE_CONFLICTS = `WITH ranked AS (
       SELECT id, dedupe_key,
              row_number() OVER w AS rn, first_value(id) OVER w AS kept
         FROM pgqueuer
        WHERE status::text IN ('queued', 'picked', 'failed') AND dedupe_key IS NOT NULL
       WINDOW w AS (PARTITION BY dedupe_key ORDER BY status IN ('queued', 'picked') DESC, id DESC)
     ),
     renamed AS (
       UPDATE pgqueuer p
          SET dedupe_key = r.dedupe_key || '#dup-of-' || r.kept,
              headers = coalesce(CASE WHEN jsonb_typeof(p.headers) = 'object' THEN p.headers END, '{}'::jsonb)
                || jsonb_build_object('aizk',
                     coalesce(CASE WHEN jsonb_typeof(p.headers->'aizk') = 'object' THEN p.headers->'aizk' END, '{}'::jsonb)
                     || jsonb_build_object('dedupeKeyConflict', jsonb_build_object('dedupeKey', r.dedupe_key, 'keptJob', r.kept::text)))
         FROM ranked r
        WHERE p.id = r.id AND r.rn > 1
       RETURNING p.id, r.dedupe_key AS old_key, p.dedupe_key AS new_key, r.kept
     )
     SELECT id::text, old_key, new_key, kept::text FROM renamed ORDER BY old_key, id`
