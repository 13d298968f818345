/**
 * DecayJob's body: weight × 0.5^(Δt / half life) for every live claim of the set, Δt being the
 * time since the claim was last decayed (or reinforced, which decays it to that moment first).
 * Batches of `decayBatch` claims by id, each in its own short transaction, so no lock is held
 * for long; a claim that falls below `decayFloor` is marked faded, never deleted.
 *
 * The batches are id ranges fixed up front by one read (every `batch`-th live id of the set):
 * the ranges cover the whole id space, so a claim added meanwhile still falls in one of them,
 * and each batch's UPDATE is one index range scan. Finding each batch with ORDER BY id LIMIT
 * instead costs a scan of the whole set per batch (row security's containment test hides the
 * set's size from the planner, which then sorts), quadratic in the set's size.
 */
import type pg from 'pg'
import type { User } from '../../scope/user.js'

export interface DecayOptions {
  halfLifeDays: number
  floor: number
  batch: number
  signal?: AbortSignal
}

const LIVE = 'scopes = $1::uuid[] AND NOT faded AND subject_id IS NOT NULL'

export async function decayClaims(pool: pg.Pool, user: User, opts: DecayOptions): Promise<{ decayed: number; faded: number }> {
  const bounds = await user.transaction(pool, async (db) => {
    const { rows } = await db.query<{ id: string }>(
      `SELECT id::text FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM claim WHERE ${LIVE}) s
        WHERE n % $2 = 0 ORDER BY id`,
      [user.write, opts.batch],
    )
    return rows.map((r) => r.id)
  })
  // Ranges (lower, upper]: no lower bound first, no upper bound last.
  const ranges: [string | null, string | null][] = [...bounds, null].map((upper, i) => [i === 0 ? null : bounds[i - 1], upper])
  let decayed = 0
  let faded = 0
  for (const [lower, upper] of ranges) {
    opts.signal?.throwIfAborted()
    const row = await user.transaction(pool, async (db) => {
      const { rows } = await db.query<{ n: number; faded: number }>(
        `WITH decayed AS (
           UPDATE claim c SET
             weight = c.weight * power(0.5, greatest(extract(epoch FROM now() - c.last_decayed), 0) / ($2::float8 * 86400)),
             faded = c.weight * power(0.5, greatest(extract(epoch FROM now() - c.last_decayed), 0) / ($2::float8 * 86400)) < $3::float8,
             last_decayed = now()
           WHERE ${LIVE}${lower ? ' AND id > $4::uuid' : ''}${upper ? ` AND id <= $${lower ? 5 : 4}::uuid` : ''}
           RETURNING c.faded)
         SELECT count(*)::int AS n, count(*) FILTER (WHERE faded)::int AS faded FROM decayed`,
        [user.write, opts.halfLifeDays, opts.floor, ...[lower, upper].filter((b) => b !== null)],
      )
      return rows[0]
    })
    decayed += row.n
    faded += row.faded
  }
  return { decayed, faded }
}
