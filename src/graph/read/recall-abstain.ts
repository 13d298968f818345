/**
 * Whether recall answers at all (docs/memory-graph.md, "Recall that knows when it doesn't know"):
 * the question's words weighed among the reader's chunks, read against the first items
 * (recall-features.ts), the model's confidence held to the floor. Below it recall answers nothing;
 * a floor of 0 keeps every result.
 */
import type { PoolClient } from 'pg'
import { judge } from './recall-features.js'
import { weighedGroups } from './recall-floor.js'
import { confidenceOf, featureVector } from './recall-model.js'
import type { RankedResult, RecallResult } from './recall-types.js'

const round = (x: number) => Number(x.toFixed(4))

export async function applyFloor(db: PoolClient, result: RankedResult, floor: number): Promise<RecallResult> {
  const groups = await weighedGroups(db, result.query)
  const { supports, features } = await judge(db, result.query, result.items, groups)
  const support = round(Math.max(0, ...supports))
  const confidence = result.items.length ? round(confidenceOf(featureVector(features))) : 0
  const items = result.items.map((item, i) => ({ ...item, support: round(supports[i]) }))
  const judged = { support, confidence, features, floor }
  if (confidence >= floor) return { ...result, ...judged, items, abstained: false }
  return { ...result, ...judged, items: [], claims: [], entities: [], communities: [], chunks: [], abstained: true }
}
