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
import { decayRange, decayRangeBounds } from './sql/decay-sql.js'

export interface DecayOptions {
  halfLifeDays: number
  floor: number
  batch: number
  signal?: AbortSignal
}

export async function decayClaims(pool: pg.Pool, user: User, opts: DecayOptions): Promise<{ decayed: number; faded: number }> {
  const bounds = await user.transaction(pool, (db) => decayRangeBounds(db, user.write, opts.batch))
  // Ranges (lower, upper]: no lower bound first, no upper bound last.
  const ranges: [string | null, string | null][] = [...bounds, null].map((upper, i) => [i === 0 ? null : bounds[i - 1], upper])
  let decayed = 0
  let faded = 0
  for (const [lower, upper] of ranges) {
    opts.signal?.throwIfAborted()
    const row = await user.transaction(pool, (db) => decayRange(db, user.write, { lower, upper, halfLifeDays: opts.halfLifeDays, floor: opts.floor }))
    decayed += row.n
    faded += row.faded
  }
  return { decayed, faded }
}
