/**
 * Rising and fading entities: an entity's weight is the sum of its live claims' weights (as
 * subject or object). Against the weight the insight pass measured last time, one that grew by
 * `ratio` (and by at least `minDelta`) is rising, one that shrank as much is fading. The first
 * measurement is only a baseline. Evidence: for a rising entity the claims reinforced since the
 * last measurement, for a fading one its strongest claims, faded or not.
 */
import type { Queryable } from '../../../db/queryable.js'
import type { NewInsight } from '../sql/insight-sql.js'
import {
  ANALYZE_TREND_WEIGHTS,
  DROP_TREND_WEIGHTS,
  INDEX_TREND_WEIGHTS,
  MEASURE_TREND_WEIGHTS,
  MOVED_ENTITIES,
  STORE_TREND_WEIGHTS,
  ZERO_VANISHED_TRENDS,
} from '../sql/trend-sql.js'

export interface TrendOptions {
  ratio: number
  minDelta: number
  evidenceClaims: number
}

export async function findTrends(db: Queryable, scopes: readonly string[], opts: TrendOptions): Promise<NewInsight[]> {
  // Named with pg_temp.: a table of the same name elsewhere on the search path never stands in.
  await db.query(MEASURE_TREND_WEIGHTS, [scopes])
  // A temp table has no statistics: without a key and ANALYZE, the joins below may be planned
  // as nested loops over every pair of entities.
  await db.query(INDEX_TREND_WEIGHTS)
  await db.query(ANALYZE_TREND_WEIGHTS)
  const { rows } = await db.query<{ id: string; name: string; before: number; now: number; since: Date; evidence: string[] | null }>(MOVED_ENTITIES, [
    scopes,
    opts.ratio,
    opts.minDelta,
    opts.evidenceClaims,
  ])
  await db.query(STORE_TREND_WEIGHTS, [scopes])
  await db.query(ZERO_VANISHED_TRENDS, [scopes])
  await db.query(DROP_TREND_WEIGHTS)
  return rows.map((r) => {
    const rising = r.now > r.before
    return {
      kind: rising ? 'rising_entity' : 'fading_entity',
      title: `${r.name} is ${rising ? 'rising' : 'fading'}: weight ${Number(r.before).toFixed(2)} -> ${Number(r.now).toFixed(2)}`,
      detail: { entity: r.name, before: Number(r.before), now: Number(r.now), since: r.since.toISOString() },
      entityId: r.id,
      about: r.id,
      claimIds: r.evidence ?? [],
    }
  })
}
