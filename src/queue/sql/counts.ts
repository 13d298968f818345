/** The live counts (aizk_queue_count and its deltas) and the throughput seconds (aizk_throughput): read, folded, trimmed. */

export const READ_COUNTS = `SELECT entrypoint, priority, status::text AS status, sum(n)::text AS n
       FROM (SELECT entrypoint, priority, status, n FROM aizk_queue_count
             UNION ALL
             SELECT entrypoint, priority, status, n FROM aizk_queue_count_delta) c
      GROUP BY 1, 2, 3
     HAVING sum(n) <> 0
      ORDER BY 1, 2 DESC, 3`

export const TRY_COUNTS_LOCK = 'SELECT pg_try_advisory_xact_lock($1) AS ok'

export const FOLD_COUNT_DELTAS = `WITH gone AS (DELETE FROM aizk_queue_count_delta RETURNING entrypoint, priority, status, n),
       summed AS (SELECT entrypoint, priority, status, sum(n) AS n, count(*) AS k FROM gone GROUP BY 1, 2, 3),
       upserted AS (
         INSERT INTO aizk_queue_count AS b (entrypoint, priority, status, n)
         SELECT entrypoint, priority, status, n FROM summed
         ON CONFLICT (entrypoint, priority, status) DO UPDATE SET n = b.n + EXCLUDED.n
         RETURNING 1
       )
       SELECT coalesce(sum(k), 0)::text AS folded FROM summed, (SELECT count(*) FROM upserted) u`

export const DELETE_ZERO_COUNTS = 'DELETE FROM aizk_queue_count WHERE n = 0'

export const TRY_THROUGHPUT_LOCK = 'SELECT pg_try_advisory_xact_lock($1) AS ok'

export const TRIM_THROUGHPUT = 'DELETE FROM aizk_throughput WHERE second < now() - make_interval(secs => $1::float8)'

export const FOLD_THROUGHPUT = `WITH dup AS (
         SELECT second, entrypoint, status FROM aizk_throughput
          WHERE second >= now() - interval '120 seconds' AND second < now() - interval '2 seconds'
          GROUP BY 1, 2, 3 HAVING count(*) > 1
       ),
       gone AS (
         DELETE FROM aizk_throughput t USING dup
          WHERE t.second = dup.second AND t.entrypoint = dup.entrypoint AND t.status = dup.status
         RETURNING t.second, t.entrypoint, t.status, t.n
       )
       INSERT INTO aizk_throughput (second, entrypoint, status, n)
       SELECT second, entrypoint, status, sum(n) FROM gone GROUP BY 1, 2, 3`

export const READ_THROUGHPUT = `SELECT floor(extract(epoch FROM date_trunc('minute', now()) - date_trunc('minute', second)) / 60)::int AS minute_ago,
            entrypoint, status::text AS status, sum(n)::text AS n,
            sum(n) FILTER (WHERE second >= date_trunc('second', now()) - interval '10 seconds'
                             AND second < date_trunc('second', now()))::text AS recent,
            sum(n) FILTER (WHERE second >= now() - interval '60 seconds')::text AS last_minute
       FROM aizk_throughput
      WHERE second >= date_trunc('minute', now()) - make_interval(mins => $1::int - 1)
        AND status NOT IN ('queued', 'picked')
      GROUP BY 1, 2, 3`
