/** The live job holding a dedupe key. */

export const FIND_LIVE_BY_KEY = `SELECT id::text, status::text, entrypoint FROM pgqueuer
      WHERE dedupe_key = $1 AND status IN ('queued', 'picked', 'failed')
      LIMIT 1`
