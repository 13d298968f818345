/**
 * DecayJob's body: weight × 0.5^(Δt / half life) for every live claim of the set, Δt being the
 * time since the claim was last decayed (or reinforced, which decays it to that moment first).
 * Batches of `decayBatch` claims by id, each in its own short transaction, so no lock is held
 * for long; a claim that falls below `decayFloor` is marked faded, never deleted.
 */
import type pg from 'pg'
import type { User } from '../scope/user.js'

export interface DecayOptions {
  halfLifeDays: number
  floor: number
  batch: number
  signal?: AbortSignal
}

export async function decayClaims(pool: pg.Pool, user: User, opts: DecayOptions): Promise<{ decayed: number; faded: number }> {
  let after = '00000000-0000-0000-0000-000000000000'
  let decayed = 0
  let faded = 0
  for (;;) {
    opts.signal?.throwIfAborted()
    const row = await user.transaction(pool, async (db) => {
      const { rows } = await db.query<{ last: string | null; n: number; faded: number }>(
        `WITH batch AS (
           SELECT id FROM claim
            WHERE scopes = $1::uuid[] AND id > $2::uuid AND NOT faded AND subject_id IS NOT NULL
            ORDER BY id LIMIT $3),
         decayed AS (
           UPDATE claim c SET
             weight = c.weight * power(0.5, greatest(extract(epoch FROM now() - c.last_decayed), 0) / ($4::float8 * 86400)),
             faded = c.weight * power(0.5, greatest(extract(epoch FROM now() - c.last_decayed), 0) / ($4::float8 * 86400)) < $5::float8,
             last_decayed = now()
           FROM batch WHERE c.id = batch.id
           RETURNING c.faded)
         SELECT (SELECT max(id::text) FROM batch) AS last, (SELECT count(*)::int FROM decayed) AS n,
                (SELECT count(*)::int FROM decayed WHERE faded) AS faded`,
        [user.write, after, opts.batch, opts.halfLifeDays, opts.floor],
      )
      return rows[0]
    })
    decayed += row.n
    faded += row.faded
    if (!row.last || row.n < opts.batch) return { decayed, faded }
    after = row.last
  }
}
