/** Pages of live jobs for `aizk jobs`. */

export const BROWSE_JOBS = `SELECT id::text AS id, priority, status::text AS status, entrypoint, queue_manager_id::text AS qm, created, updated, heartbeat,
            execute_after, attempts, dedupe_key, octet_length(payload) AS bytes,
            substring(payload FROM 1 FOR $3::int * 4) AS payload, headers
       FROM pgqueuer
      ORDER BY priority DESC, id
      LIMIT $1 OFFSET $2`
