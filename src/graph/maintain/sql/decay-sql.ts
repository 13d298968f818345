/** The decay pass's SQL on `claim`, inside User.system(scopes). */
import type { Queryable } from '../../../db/queryable.js'

const LIVE = 'scopes = $1::uuid[] AND NOT faded AND subject_id IS NOT NULL'

/** Every `batch`-th live claim id of the set, in order: the upper bounds of the decay's id ranges. */
export async function decayRangeBounds(db: Queryable, scopes: readonly string[], batch: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id::text FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM claim WHERE ${LIVE}) s
      WHERE n % $2 = 0 ORDER BY id`,
    [scopes, batch],
  )
  return rows.map((r) => r.id)
}

/** Decay the live claims with id in (lower, upper] (a null bound is open); returns how many and how many faded. */
export async function decayRange(
  db: Queryable,
  scopes: readonly string[],
  range: { lower: string | null; upper: string | null; halfLifeDays: number; floor: number },
): Promise<{ n: number; faded: number }> {
  const { lower, upper } = range
  const { rows } = await db.query<{ n: number; faded: number }>(
    `WITH decayed AS (
       UPDATE claim c SET
         weight = c.weight * power(0.5, greatest(extract(epoch FROM now() - c.last_decayed), 0) / ($2::float8 * 86400)),
         faded = c.weight * power(0.5, greatest(extract(epoch FROM now() - c.last_decayed), 0) / ($2::float8 * 86400)) < $3::float8,
         last_decayed = now()
       WHERE ${LIVE}${lower ? ' AND id > $4::uuid' : ''}${upper ? ` AND id <= $${lower ? 5 : 4}::uuid` : ''}
       RETURNING c.faded)
     SELECT count(*)::int AS n, count(*) FILTER (WHERE faded)::int AS faded FROM decayed`,
    [scopes, range.halfLifeDays, range.floor, ...[lower, upper].filter((b) => b !== null)],
  )
  return rows[0]
}
