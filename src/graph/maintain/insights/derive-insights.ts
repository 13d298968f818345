/**
 * InsightJob's body: facts a later value replaced are closed (close-replaced.ts), then
 * contradictions, rising and fading entities, new and split communities of one scope set, each
 * written once per evidence (src/graph/maintain/sql/insight-sql.ts).
 */
import type { Queryable } from '../../../db/queryable.js'
import type { Settings } from '../../../settings.js'
import { writeInsights } from '../sql/insight-sql.js'
import { closeReplacedFacts } from './close-replaced.js'
import { findCommunityChanges } from './community-insights.js'
import { findContradictions } from './contradictions.js'
import { findTrends } from './trends.js'

export type InsightSettings = Pick<Settings, 'insightTrendRatio' | 'insightMaxObjects'>

/** A trend also moves at least one claim's weight, so tiny entities do not flap between rising and fading. */
const TREND_MIN_DELTA = 1
/** Claims kept as the evidence of one insight: enough to check it, few enough to read. */
const EVIDENCE_CLAIMS = 10

export async function deriveInsights(db: Queryable, scopes: readonly string[], settings: InsightSettings) {
  const closed = await closeReplacedFacts(db, scopes, settings.insightMaxObjects)
  const contradictions = await findContradictions(db, scopes, settings.insightMaxObjects)
  const trends = await findTrends(db, scopes, {
    ratio: settings.insightTrendRatio,
    minDelta: TREND_MIN_DELTA,
    evidenceClaims: EVIDENCE_CLAIMS,
  })
  const communities = await findCommunityChanges(db, scopes)
  const found = [...contradictions, ...trends, ...communities]
  const written = await writeInsights(db, scopes, found)
  return { found: found.length, written, contradictions: contradictions.length, trends: trends.length, communities: communities.length, closed }
}
