/** Throughput history from aizk_throughput. */

export const READ_THROUGHPUT_BUCKETS = `SELECT second, entrypoint, status::text AS status, sum(n)::text AS n
       FROM aizk_throughput
      WHERE $1::float8 IS NULL OR second >= now() - make_interval(secs => $1::float8)
      GROUP BY 1, 2, 3
      ORDER BY 1 DESC, 2, 3
      LIMIT $2`

export const READ_THROUGHPUT_TOTALS = `SELECT entrypoint, status::text AS status, sum(n)::text AS n
       FROM aizk_throughput
      WHERE $1::float8 IS NULL OR second >= now() - make_interval(secs => $1::float8)
      GROUP BY 1, 2
      ORDER BY 1, 2`
