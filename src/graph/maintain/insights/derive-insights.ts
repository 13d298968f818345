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

export type InsightSettings = Pick<Settings, 'insightTrendRatio' | 'insightTrendMinDelta' | 'insightMaxObjects' | 'insightEvidenceClaims'>

export async function deriveInsights(db: Queryable, scopes: readonly string[], settings: InsightSettings) {
  const closed = await closeReplacedFacts(db, scopes, settings.insightMaxObjects)
  const contradictions = await findContradictions(db, scopes, settings.insightMaxObjects)
  const trends = await findTrends(db, scopes, {
    ratio: settings.insightTrendRatio,
    minDelta: settings.insightTrendMinDelta,
    evidenceClaims: settings.insightEvidenceClaims,
  })
  const communities = await findCommunityChanges(db, scopes)
  const found = [...contradictions, ...trends, ...communities]
  const written = await writeInsights(db, scopes, found)
  return { found: found.length, written, contradictions: contradictions.length, trends: trends.length, communities: communities.length, closed }
}
