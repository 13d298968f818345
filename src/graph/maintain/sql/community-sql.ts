/**
 * SQL of the community pass, on the caller's client inside User.system(scopes). Reads name the
 * set with equality (the set's own graph, as its growth gate counts it); writes replace the
 * set's communities wholesale, inside the pass's one transaction.
 */
import type { Queryable } from '../../../db/queryable.js'
import type { EdgeList } from '../communities/cluster-levels.js'
import type { CommunityClaim } from '../communities/community-text.js'

/**
 * Entity-to-entity edges of the set: live claims (not superseded, not faded), weights added. One
 * aggregated query; the rows are packed into typed arrays as they arrive (entity ids numbered in
 * first-seen order), so the list is small and can be handed to a thread without copying.
 */
export async function entityEdges(db: Queryable, scopes: readonly string[]): Promise<EdgeList> {
  const { rows } = await db.query<[string, string, number]>({
    // Grouped by uuid and turned into text after: grouping by the text is a third slower.
    text: `SELECT a::text, b::text, w FROM (
             SELECT least(subject_id, object_id) AS a, greatest(subject_id, object_id) AS b, sum(weight)::float8 AS w
               FROM claim
              WHERE scopes = $1::uuid[] AND object_id IS NOT NULL AND subject_id <> object_id
                AND superseded_by IS NULL AND NOT faded AND weight > 0
              GROUP BY 1, 2) AS edge`,
    values: [scopes],
    rowMode: 'array',
  })
  const ids: string[] = []
  const index = new Map<string, number>()
  const number = (id: string) => {
    let i = index.get(id)
    if (i === undefined) {
      i = ids.push(id) - 1
      index.set(id, i)
    }
    return i
  }
  const edges: EdgeList = { ids, a: new Int32Array(rows.length), b: new Int32Array(rows.length), weight: new Float64Array(rows.length) }
  rows.forEach(([a, b, w], i) => {
    edges.a[i] = number(a)
    edges.b[i] = number(b)
    edges.weight[i] = Number(w)
  })
  return edges
}

export interface EntityName {
  id: string
  name: string
}

export async function entityNames(db: Queryable, ids: string[]): Promise<Map<string, string>> {
  const { rows } = await db.query<EntityName>('SELECT id::text, name FROM entity WHERE id = ANY($1::uuid[])', [ids])
  return new Map(rows.map((r) => [r.id, r.name]))
}

/** The set's live entity-to-entity claims, packed: claim k joins entities subject[k] and object[k] (numbers of `entityIds`). */
export interface InternalClaims {
  ids: string[]
  subject: Int32Array
  object: Int32Array
  weight: Float64Array
}

/**
 * Every live entity-to-entity claim of the set, strongest first (ties by id), for ranking inside
 * each community, with its ends numbered as in `entityIds` (-1: not among them). No text:
 * claimFacts reads it for the few claims a summary states.
 */
export async function internalClaims(db: Queryable, scopes: readonly string[], entityIds: readonly string[]): Promise<InternalClaims> {
  const { rows } = await db.query<[string, string, string, number]>({
    // Sorted as uuids, turned into text after: the narrower rows sort faster (the outer ORDER BY
    // keeps the order guaranteed and costs nothing: the planner sees the rows come sorted).
    text: `SELECT c.id::text, c.s::text, c.o::text, c.w FROM (
             SELECT id, subject_id AS s, object_id AS o, weight::float8 AS w
               FROM claim
              WHERE scopes = $1::uuid[] AND object_id IS NOT NULL AND subject_id <> object_id
                AND superseded_by IS NULL AND NOT faded AND weight > 0
              ORDER BY w DESC, id) AS c
            ORDER BY c.w DESC, c.id`,
    values: [scopes],
    rowMode: 'array',
  })
  const number = new Map(entityIds.map((id, i) => [id, i]))
  const claims: InternalClaims = { ids: [], subject: new Int32Array(rows.length), object: new Int32Array(rows.length), weight: new Float64Array(rows.length) }
  rows.forEach(([id, s, o, w], k) => {
    claims.ids.push(id)
    claims.subject[k] = number.get(s) ?? -1
    claims.object[k] = number.get(o) ?? -1
    claims.weight[k] = Number(w)
  })
  return claims
}

export async function claimFacts(db: Queryable, ids: string[]): Promise<Map<string, CommunityClaim>> {
  const { rows } = await db.query<{ id: string; subject: string; predicate: string; object: string; valid_from: string | null; valid_to: string | null }>(
    `SELECT c.id::text, se.name AS subject, c.predicate, oe.name AS object, c.valid_from, c.valid_to
       FROM claim c JOIN entity se ON se.id = c.subject_id JOIN entity oe ON oe.id = c.object_id
      WHERE c.id = ANY($1::uuid[])`,
    [ids],
  )
  return new Map(rows.map((r) => [r.id, { subject: r.subject, predicate: r.predicate, object: r.object, validFrom: r.valid_from, validTo: r.valid_to }]))
}

export interface PreviousCommunity {
  lineage: string
  level: number
  members: string[]
}

/** The set's current communities with their entities (a community above level 0 has its descendants'). */
export async function previousCommunities(db: Queryable, scopes: readonly string[]): Promise<PreviousCommunity[]> {
  const { rows } = await db.query<{ lineage: string; level: number; members: string[] }>(
    `WITH RECURSIVE below AS (
       SELECT id AS top, id FROM community WHERE scopes = $1::uuid[]
       UNION ALL
       SELECT b.top, c.id FROM below b JOIN community c ON c.parent_id = b.id AND c.scopes = $1::uuid[])
     SELECT t.lineage::text, t.level, array_agg(m.entity_id::text) AS members
       FROM below b JOIN community_member m ON m.community_id = b.id JOIN community t ON t.id = b.top
      GROUP BY t.id, t.lineage, t.level`,
    [scopes],
  )
  return rows
}

export interface NewCommunity {
  id: string
  level: number
  parentId: string | null
  title: string
  summary: string
  weight: number
  claimIds: string[]
  lineage: string
  novelty: 'first' | 'kept' | 'new' | 'split'
  splitFrom: string | null
  members: string[]
}

/**
 * Drop the set's communities and write these: the caller's one transaction makes it atomic.
 * Member rows are written for level 0 only: a community above holds its children's entities,
 * found through `parent_id`, so the largest table stays one row per clustered entity.
 */
export async function replaceCommunities(db: Queryable, scopes: readonly string[], communities: NewCommunity[]): Promise<void> {
  await db.query('DELETE FROM community WHERE scopes = $1::uuid[]', [scopes])
  if (communities.length === 0) return
  // Parents first (higher levels), so every parent_id exists when its child is inserted.
  const ordered = [...communities].sort((a, b) => b.level - a.level)
  const rows = ordered.map((c) => ({
    id: c.id,
    level: c.level,
    parent_id: c.parentId,
    title: c.title,
    summary: c.summary,
    size: c.members.length,
    weight: c.weight,
    claim_ids: c.claimIds,
    lineage: c.lineage,
    novelty: c.novelty,
    split_from: c.splitFrom,
  }))
  for (let i = 0; i < rows.length; i += 2000) {
    await db.query(
      `INSERT INTO community (id, scopes, level, parent_id, title, summary, size, weight, claim_ids, lineage, novelty, split_from)
       SELECT u.id, $1::uuid[], u.level, u.parent_id, u.title, u.summary, u.size, u.weight, u.claim_ids, u.lineage, u.novelty, u.split_from
         FROM jsonb_to_recordset($2::jsonb) AS u(id uuid, level int, parent_id uuid, title text, summary text, size int,
              weight float8, claim_ids uuid[], lineage uuid, novelty text, split_from uuid)`,
      [scopes, JSON.stringify(rows.slice(i, i + 2000))],
    )
  }
  const communityIds: string[] = []
  const entityIds: string[] = []
  for (const c of communities) {
    if (c.level > 0) continue
    for (const m of c.members) {
      communityIds.push(c.id)
      entityIds.push(m)
    }
  }
  for (let i = 0; i < communityIds.length; i += 20000) {
    await db.query(
      `INSERT INTO community_member (community_id, entity_id, scopes)
       SELECT c, e, $1::uuid[] FROM unnest($2::uuid[], $3::uuid[]) AS u(c, e)`,
      [scopes, communityIds.slice(i, i + 20000), entityIds.slice(i, i + 20000)],
    )
  }
}
