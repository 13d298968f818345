/** Per-scope-set row counts (`aizk roster`). */

export const COUNT_SQL = `
  SELECT (SELECT count(*) FROM document WHERE scopes = $1::uuid[])::text AS documents,
         (SELECT count(*) FROM session_item WHERE scopes = $1::uuid[])::text AS session_items,
         (SELECT count(*) FROM artifact WHERE scopes = $1::uuid[])::text AS artifacts,
         (SELECT count(*) FROM chunk WHERE scopes = $1::uuid[] AND projection_status = 'pending')::text AS chunks_pending,
         (SELECT count(*) FROM entity WHERE scopes = $1::uuid[] AND merged_into IS NULL)::text AS entities,
         (SELECT count(*) FROM claim WHERE scopes = $1::uuid[] AND subject_id IS NOT NULL)::text AS claims,
         (SELECT count(*) FROM community WHERE scopes = $1::uuid[])::text AS communities,
         (SELECT count(*) FROM insight WHERE scopes = $1::uuid[])::text AS insights`
