/** The operator's job filter (entrypoints, ids, age) as SQL, and the reads it drives. */

/** The filter as SQL over pgqueuer's columns, its parameters numbered from `first`. */
export function filterSql(first: number, column = (c: string) => c): string {
  const [e, i, o] = [first, first + 1, first + 2]
  return `($${e}::text[] IS NULL OR ${column('entrypoint')} = ANY($${e}::text[]))
     AND ($${i}::bigint[] IS NULL OR ${column('id')} = ANY($${i}::bigint[]))
     AND ($${o}::float8 IS NULL OR ${column('updated')} <= now() - $${o}::float8 * interval '1 second')`
}

/**
 * The ids of one window of `status` rows matching the filter, oldest first: the filter's
 * parameters are $1-$3, the last id of the window before is $4 (null: from the start), the
 * window's size $5. `extra` adds a condition of the caller's.
 */
export function windowSql(status: 'queued' | 'picked' | 'failed', extra?: string): string {
  return `SELECT id FROM pgqueuer
           WHERE status = '${status}' AND ${filterSql(1)}${extra ? `\n             AND ${extra}` : ''}
             AND ($4::bigint IS NULL OR id > $4::bigint)
           ORDER BY id
           LIMIT $5`
}

export const COUNT_MATCHING = `SELECT count(*) AS n FROM pgqueuer WHERE status = $1 AND ${filterSql(2)}`

export const IDS_NOT_IN = `SELECT want.id::text AS id, p.status::text AS status
       FROM unnest($1::bigint[]) AS want(id)
       LEFT JOIN pgqueuer p ON p.id = want.id
      WHERE p.status IS NULL OR NOT (p.status::text = ANY($2::text[]))
      ORDER BY want.id`

export const ENTRYPOINTS_IN_USE = `SELECT e FROM unnest($1::text[]) AS e
      WHERE EXISTS (SELECT 1 FROM pgqueuer WHERE entrypoint = e AND status = 'queued')
         OR EXISTS (SELECT 1 FROM pgqueuer WHERE entrypoint = e AND status = 'failed')
         OR EXISTS (SELECT 1 FROM pgqueuer WHERE entrypoint = e AND status = 'picked')
         OR EXISTS (SELECT 1 FROM aizk_worker w WHERE e = ANY (w.entrypoints))`
