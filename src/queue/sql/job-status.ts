/** Final and current statuses of jobs by id. */

export const STATUS_SQL = `
  SELECT i.id::text AS id, q.status::text AS row_status, l.status::text AS log_status
    FROM unnest($1::bigint[]) AS i(id)
    LEFT JOIN pgqueuer q ON q.id = i.id
    LEFT JOIN LATERAL (
      SELECT status FROM pgqueuer_log
       WHERE job_id = i.id AND status NOT IN ('queued', 'picked')
       ORDER BY created DESC, id DESC LIMIT 1
    ) l ON q.id IS NULL`
