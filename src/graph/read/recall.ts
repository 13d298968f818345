/**
 * Recall: the context a question needs, ranked and explained (docs/memory-graph.md, "Reading the
 * graph"). One transaction inside User.system(readScopes) as the app role, so row security decides
 * every row read; containment, so a reader of {A,B} sees {A}, {B} and {A,B} rows, never {A,C}.
 *
 * Rankers: full text over chunks, entity names, profiles, claims and communities; trigrams of the
 * question's word runs against entity names; the graph around the matched entities (one hop, and
 * a second at half strength), each claim weighted by its decayed weight; the question's vector
 * against chunk vectors when one is given. Reciprocal-rank fusion orders the lot.
 */
import type pg from 'pg'
import type { PoolClient } from 'pg'
import { UsageError } from '../../errors.js'
import { type IdentitySettings, User } from '../../scope/user.js'
import { DEFAULT_SYSTEM_USER_ID } from '../../settings.js'
import { asOfSpan, type TimeSpan } from '../time-span.js'
import { fuse, type Ranking, rankBy } from './recall-fuse.js'
import { applyFloor, RECALL_FLOOR } from './recall-floor.js'
import { questionNames } from './recall-terms.js'
import type { RankedResult, RecalledChunk, RecalledClaim, RecalledCommunity, RecalledEntity, RecallItem, RecallOptions, RecallResult } from './recall-types.js'
import * as sql from './sql/recall-sql.js'

const CANDIDATES_PER_RANKER = 20
const SEED_ENTITIES = 8
const NEIGHBOURS = 8
const CLAIMS_PER_ENTITY = 25
const SECOND_HOP = 0.5
/** A chunk is found by one ranking where a claim is found by two: this evens their chances. */
const CHUNK_WEIGHT = 2

const iso = (d: Date) => d.toISOString()

interface Candidate {
  source: string
  id: string
  rank: number
}

interface ClaimRow {
  id: string
  subject_id: string
  subject: string
  predicate: string
  object_id: string | null
  object: string
  weight: number
  created: Date
  valid_from: string | null
  valid_to: string | null
  ended_by: string | null
  last_reinforced: Date
  scopes: string[]
  text_rank: number
  coverage: number
}

/**
 * The question as recall reads it, trimmed; a usage error (exit 2) when it is empty or holds a NUL,
 * which no PostgreSQL text can carry (the server would answer "invalid byte sequence").
 */
export function checkQuestion(question: string): string {
  const q = question.trim()
  if (!q) throw new UsageError('the question is empty', 'pass the question as the first argument, in quotes')
  const at = q.indexOf('\0')
  if (at >= 0) throw new UsageError(`the question holds a NUL character (at character ${at + 1})`, 'ask in plain text: remove the NUL (\\0, \\u0000) from the question')
  return q
}

export async function recall(pool: pg.Pool, options: RecallOptions, identity?: IdentitySettings): Promise<RecallResult> {
  checkQuestion(options.query)
  const settings = identity ?? { appRole: 'aizk_app', systemUserId: DEFAULT_SYSTEM_USER_ID }
  const user = User.system(options.readScopes, settings)
  const limit = options.limit ?? 10
  const when: When = { asOf: options.asOf ?? null, span: recallSpan(options.asOf), knownAt: options.knownAt ?? null }
  // The floor is calibrated on words; a caller ranking by vector sets its own (docs/memory-graph.md).
  const floor = options.floor ?? (options.queryVector?.length ? 0 : RECALL_FLOOR)
  return user.transaction(pool, async (db) => applyFloor(db, await recallIn(db, options.query, limit, when, options.queryVector, [...user.read]), floor))
}

interface When {
  asOf: Date | string | null
  span: TimeSpan | null
  knownAt: Date | null
}

/** The period `asOf` names; a usage error (exit 2) for text that names none. */
export function recallSpan(asOf: Date | string | undefined): TimeSpan | null {
  if (asOf === undefined) return null
  const span = asOfSpan(typeof asOf === 'string' ? asOf : asOf.toISOString())
  if (!span) throw new UsageError(`the as-of "${String(asOf)}" is not a date`, 'pass a year (1997), a month (2001-04 or "April 2001"), a day (2010-06-01) or an ISO 8601 moment')
  return span
}

async function recallIn(db: PoolClient, question: string, limit: number, when: When, vector: number[] | undefined, scopes: string[]): Promise<RankedResult> {
  const at = when.knownAt ?? new Date((await db.query<{ now: Date }>(sql.NOW)).rows[0].now)
  const span = when.span
  const { query: tsquery, lexemes } = (await db.query<{ query: string; lexemes: string[] }>(sql.QUESTION_QUERY, [question])).rows[0]
  const terms = { tsquery, lexemes }
  const candidates: Candidate[] = (await db.query<Candidate>(sql.CANDIDATES, [tsquery, lexemes, questionNames(question), CANDIDATES_PER_RANKER])).rows
  if (vector?.length) candidates.push(...(await db.query<Candidate>(sql.NEAREST_CHUNKS, [vector, CANDIDATES_PER_RANKER])).rows)
  const from = (source: string) => candidates.filter((c) => c.source === source)

  // Entities the question names: their three rankings fused into one order.
  const entityOrder = fuse(['entity', 'name', 'profile'].map((s) => ({ name: s, keys: from(s).map((c) => c.id) })))
  const seedScore = new Map(entityOrder.slice(0, SEED_ENTITIES).map((f) => [f.key, f.score]))

  // The graph around them: claims in and out, then the neighbours' claims at half strength.
  const claimHits = from('claim').map((c) => c.id)
  const first = await claimsAround(db, [...seedScore.keys()], claimHits, at, span, terms)
  const neighbourScore = new Map<string, number>()
  for (const c of first) {
    const strength = (seedScore.get(c.subject_id) ?? seedScore.get(c.object_id ?? '') ?? 0) * c.weight * SECOND_HOP
    for (const other of [c.subject_id, c.object_id]) {
      if (other && !seedScore.has(other)) neighbourScore.set(other, Math.max(neighbourScore.get(other) ?? 0, strength))
    }
  }
  const neighbours = rankBy(neighbourScore.entries(), ([id]) => id, ([, s]) => s).slice(0, NEIGHBOURS)
  const second = neighbours.length ? await claimsAround(db, neighbours, [], at, span, terms) : []
  const claims = new Map<string, ClaimRow & { graph: number; hops: number }>()
  for (const [rows, hop] of [[first, 1], [second, 2]] as const) {
    for (const c of rows) {
      const near = hop === 1 ? seedScore : neighbourScore
      const graph = Math.max(near.get(c.subject_id) ?? 0, near.get(c.object_id ?? '') ?? 0) * Number(c.weight) * (hop === 1 ? 1 : SECOND_HOP)
      const had = claims.get(c.id)
      if (had) had.graph = Math.max(had.graph, graph)
      else claims.set(c.id, { ...c, weight: Number(c.weight), text_rank: Number(c.text_rank), coverage: Number(c.coverage), graph, hops: graph > 0 ? hop : 0 })
    }
  }

  const rankings: Ranking[] = [
    // A claim's words count by how many of the question's it holds; its rank only breaks ties.
    { name: 'claim text', keys: rankBy(claims.values(), (c) => `claim:${c.id}`, (c) => (c.coverage >= 2 ? c.coverage + c.text_rank : 0)) },
    { name: 'graph', keys: rankBy(claims.values(), (c) => `claim:${c.id}`, (c) => c.graph * (1 + c.coverage)) },
    { name: 'entity', keys: entityOrder.map((f) => `entity:${f.key}`) },
    { name: 'chunk text', keys: from('chunk').map((c) => `chunk:${c.id}`), weight: CHUNK_WEIGHT },
    { name: 'chunk vector', keys: from('vector').map((c) => `chunk:${c.id}`), weight: CHUNK_WEIGHT },
  ]
  const communityHits = from('community').map((c) => c.id)
  const communityRows = await readCommunities(db, [...seedScore.keys()], communityHits)
  rankings.push({
    name: 'community',
    keys: rankBy(communityRows, (m) => `community:${m.id}`, (m) => m.members.length + (communityHits.includes(m.id) ? 1 : 0) + 1 / (1 + m.level)),
    weight: 0.5,
  })

  const top = fuse(rankings).slice(0, limit)
  const ids = (kind: string) => top.filter((f) => f.key.startsWith(`${kind}:`)).map((f) => f.key.slice(kind.length + 1))
  const topClaims = ids('claim').map((id) => claims.get(id) as ClaimRow & { hops: number })
  const entityIds = new Set([...ids('entity'), ...topClaims.flatMap((c) => [c.subject_id, c.object_id ?? ''].filter(Boolean))])
  // One client, one statement at a time.
  const sources = await readSources(db, topClaims.map((c) => c.id))
  const entities = await readEntities(db, [...entityIds])
  const chunks = await readChunks(db, ids('chunk'))
  const communities = new Map(communityRows.map((m) => [m.id, m]))
  const entityById = new Map(entities.map((e) => [e.id, e]))
  const claimOut = new Map<string, RecalledClaim>(
    topClaims.map((c) => [
      c.id,
      {
        id: c.id,
        subjectId: c.subject_id,
        subject: c.subject,
        predicate: c.predicate,
        objectId: c.object_id,
        object: c.object,
        weight: c.weight,
        recordedAt: iso(c.created),
        validFrom: iso(c.created),
        statedFrom: c.valid_from ?? null,
        statedUntil: c.valid_to ?? null,
        endedBy: c.ended_by ?? null,
        lastReinforced: iso(c.last_reinforced),
        hops: c.hops,
        scopes: c.scopes,
        sources: sources.get(c.id) ?? [],
      },
    ]),
  )
  const chunkById = new Map(chunks.map((c) => [c.id, c]))
  const items: RankedResult['items'] = []
  for (const f of top) {
    const [kind, id] = f.key.split(':') as [RecallItem['kind'], string]
    const text = itemText(kind, id, { claims: claimOut, entities: entityById, communities, chunks: chunkById })
    if (text === null) continue
    items.push({ kind, id, score: Number(f.score.toFixed(6)), text: text.text, why: f.why, scopes: text.scopes })
  }
  return {
    query: question,
    scopes,
    asOf: when.asOf === null ? null : typeof when.asOf === 'string' ? when.asOf : iso(when.asOf),
    asOfSpan: span,
    knownAt: when.knownAt ? iso(when.knownAt) : null,
    items,
    claims: [...claimOut.values()],
    entities,
    communities: ids('community').flatMap((id) => {
      const m = communities.get(id)
      return m ? [m] : []
    }),
    chunks: ids('chunk').flatMap((id) => {
      const c = chunkById.get(id)
      return c ? [c] : []
    }),
  }
}

interface Details {
  claims: Map<string, RecalledClaim>
  entities: Map<string, RecalledEntity>
  communities: Map<string, RecalledCommunity>
  chunks: Map<string, RecalledChunk>
}

function itemText(kind: RecallItem['kind'], id: string, d: Details): { text: string; scopes: string[] } | null {
  if (kind === 'claim') {
    const c = d.claims.get(id)
    return c ? { text: `${c.subject} ${c.predicate} ${c.object}${claimTime(c)}`, scopes: c.scopes } : null
  }
  if (kind === 'entity') {
    const e = d.entities.get(id)
    return e ? { text: `${e.name} (${e.kind})${e.description ? `: ${e.description}` : ''}`, scopes: e.scopes } : null
  }
  if (kind === 'community') {
    const m = d.communities.get(id)
    return m ? { text: `${m.title}: ${m.summary}`, scopes: m.scopes } : null
  }
  const c = d.chunks.get(id)
  return c ? { text: c.text, scopes: c.scopes } : null
}

/** When a claim held, as its text dates it: " (from April 1996 until December 1997)", or nothing. */
export function claimTime(c: Pick<RecalledClaim, 'statedFrom' | 'statedUntil'>): string {
  const parts = [c.statedFrom && `from ${c.statedFrom}`, c.statedUntil && `until ${c.statedUntil}`].filter(Boolean)
  return parts.length ? ` (${parts.join(' ')})` : ''
}

async function claimsAround(db: PoolClient, entityIds: string[], claimIds: string[], at: Date, span: TimeSpan | null, terms: { tsquery: string; lexemes: string[] }): Promise<ClaimRow[]> {
  if (!entityIds.length && !claimIds.length) return []
  const args = [entityIds, claimIds, at, CLAIMS_PER_ENTITY, terms.tsquery, terms.lexemes, span?.start ?? null, span?.end ?? null]
  return (await db.query<ClaimRow>(sql.CLAIMS_AROUND, args)).rows
}

async function readSources(db: PoolClient, claimIds: string[]): Promise<Map<string, RecalledClaim['sources']>> {
  const out = new Map<string, RecalledClaim['sources']>()
  if (!claimIds.length) return out
  const { rows } = await db.query(sql.CLAIM_SOURCES, [claimIds])
  for (const r of rows) {
    const list = out.get(r.claim_id) ?? []
    list.push({ chunkId: r.chunk_id, documentId: r.document_id, title: r.title, charStart: r.char_start, charEnd: r.char_end })
    out.set(r.claim_id, list)
  }
  return out
}

async function readEntities(db: PoolClient, ids: string[]): Promise<RecalledEntity[]> {
  if (!ids.length) return []
  const { rows } = await db.query(sql.ENTITIES, [ids])
  const order = new Map(ids.map((id, i) => [id, i]))
  return rows
    .map((r) => ({ id: r.id, name: r.name, kind: r.kind, description: r.description, aliases: r.aliases, mentions: r.mentions, scopes: r.scopes }))
    .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0))
}

async function readCommunities(db: PoolClient, entityIds: string[], hits: string[]): Promise<RecalledCommunity[]> {
  if (!entityIds.length && !hits.length) return []
  const { rows } = await db.query(sql.COMMUNITIES, [entityIds, hits])
  return rows.map((r) => ({ id: r.id, level: r.level, title: r.title, summary: r.summary, size: r.size, members: r.members, scopes: r.scopes }))
}

async function readChunks(db: PoolClient, ids: string[]): Promise<RecalledChunk[]> {
  if (!ids.length) return []
  const { rows } = await db.query(sql.CHUNKS, [ids])
  return rows.map((r) => ({ id: r.id, documentId: r.document_id, title: r.title, charStart: r.char_start, charEnd: r.char_end, text: r.text, scopes: r.scopes }))
}
