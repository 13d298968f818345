/**
 * New and split communities of the set's current build (CommunitiesJob traced each community to
 * the previous build). Evidence: the community's strongest claims, with its lineage, so one
 * community is reported once however many insight passes see it before the next rebuild.
 */
import type { Queryable } from '../../../db/queryable.js'
import { NEW_AND_SPLIT_COMMUNITIES, type NewInsight } from '../sql/insight-sql.js'

export async function findCommunityChanges(db: Queryable, scopes: readonly string[]): Promise<NewInsight[]> {
  const { rows } = await db.query<{
    lineage: string
    level: number
    title: string
    size: number
    novelty: string
    split_from: string | null
    claim_ids: string[]
  }>(NEW_AND_SPLIT_COMMUNITIES, [scopes])
  return rows.map((r) => ({
    kind: r.novelty === 'new' ? 'new_community' : 'split_community',
    title:
      r.novelty === 'new'
        ? `New community at level ${r.level}: ${r.title} (${r.size} entities)`
        : `Community split at level ${r.level}: ${r.title} (${r.size} entities) broke off an earlier one`,
    detail: { level: r.level, title: r.title, size: r.size, lineage: r.lineage, splitFrom: r.split_from },
    about: r.lineage,
    claimIds: r.claim_ids,
  }))
}
