/** Re-verification of stored originals: candidates, status, counts. */

export const INTEGRITY_CANDIDATES = `SELECT id::text, scopes::text[] AS scopes, content_id, storage, location, verified_at, created FROM artifact
      WHERE scopes = $1::uuid[] AND created < now() - make_interval(secs => $2::float8 * 86400)
      ORDER BY verified_at NULLS FIRST, created, id
      LIMIT $3`

export const SET_INTEGRITY_STATUS = 'UPDATE artifact SET integrity_status = $2, verified_at = now() WHERE id = $1'

export const COUNT_INTEGRITY = 'SELECT integrity_status, count(*) AS n FROM artifact GROUP BY 1'

export const COUNT_INTEGRITY_FAILURES = "SELECT integrity_status, count(*) AS n FROM artifact WHERE integrity_status IN ('mismatch', 'missing') GROUP BY 1"
