/**
 * Recall: the context a question needs, ranked and explained (docs/memory-graph.md, "Reading the
 * graph"). One transaction inside User.system(readScopes) as the app role, so row security decides
 * every row read; containment, so a reader of {A,B} sees {A}, {B} and {A,B} rows, never {A,C}.
 *
 * Rankers: full text over chunks, entity names, profiles, claims and communities; trigrams of the
 * question's word runs against entity names; the graph around the matched entities (one hop, and
 * a second at half strength), each claim weighted by its decayed weight; the question's vector
 * against chunk vectors when one is given. Reciprocal-rank fusion orders the lot. The walk of the
 * graph is in recall-graph.ts, the answer read from the fused order in recall-result.ts.
 */
import type pg from 'pg'
import type { PoolClient } from 'pg'
import { UsageError } from '../../errors.js'
import { type IdentitySettings, User } from '../../scope/user.js'
import { DEFAULT_SYSTEM_USER_ID } from '../../settings.js'
import { asOfSpan, type TimeSpan } from '../time-span.js'
import { applyFloor } from './recall-abstain.js'
import { type Fused, fuse, type Ranking, rankBy } from './recall-fuse.js'
import { type WalkedClaim, walkGraph } from './recall-graph.js'
import { RECALL_FLOOR } from './recall-model.js'
import { rankedResult } from './recall-result.js'
import { questionNames } from './recall-terms.js'
import type { RankedResult, RecalledCommunity, RecallOptions, RecallResult } from './recall-types.js'
import * as sql from './sql/recall-sql.js'

const CANDIDATES_PER_RANKER = 20
const SEED_ENTITIES = 8
/** A chunk is found by one ranking where a claim is found by two: this evens their chances. */
const CHUNK_WEIGHT = 2

interface Candidate {
  source: string
  id: string
  rank: number
}

/**
 * The question as recall reads it, trimmed; a usage error (exit 2) when it is empty or holds a NUL,
 * which no PostgreSQL text can carry (the server would answer "invalid byte sequence").
 */
export function checkQuestion(question: string): string {
  const q = question.trim()
  if (!q) throw new UsageError('the question is empty', 'pass the question as the first argument, in quotes')
  const at = q.indexOf('\0')
  if (at >= 0)
    throw new UsageError(`the question holds a NUL character (at character ${at + 1})`, 'ask in plain text: remove the NUL (\\0, \\u0000) from the question')
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
  if (!span)
    throw new UsageError(
      `the as-of "${String(asOf)}" is not a date`,
      'pass a year (1997), a month (2001-04 or "April 2001"), a day (2010-06-01) or an ISO 8601 moment',
    )
  return span
}

async function recallIn(db: PoolClient, question: string, limit: number, when: When, vector: number[] | undefined, scopes: string[]): Promise<RankedResult> {
  const at = when.knownAt ?? new Date((await db.query<{ now: Date }>(sql.NOW)).rows[0].now)
  const { terms, from } = await findCandidates(db, question, vector)
  // Entities the question names: their three rankings fused into one order.
  const entityOrder = fuse(['entity', 'name', 'profile'].map((s) => ({ name: s, keys: from(s).map((c) => c.id) })))
  const seedScore = new Map(entityOrder.slice(0, SEED_ENTITIES).map((f) => [f.key, f.score]))
  const claims = await walkGraph(
    db,
    seedScore,
    from('claim').map((c) => c.id),
    { at, span: when.span, terms },
  )
  const communityHits = from('community').map((c) => c.id)
  const communityRows = await readCommunities(db, [...seedScore.keys()], communityHits)
  const rankings = [...claimAndTextRankings(claims, entityOrder, from), communityRanking(communityRows, communityHits)]
  const top = fuse(rankings).slice(0, limit)
  return rankedResult(db, top, claims, communityRows, {
    query: question,
    scopes,
    asOf: when.asOf === null ? null : typeof when.asOf === 'string' ? when.asOf : when.asOf.toISOString(),
    asOfSpan: when.span,
    knownAt: when.knownAt ? when.knownAt.toISOString() : null,
  })
}

/** The question's terms, and the candidates each ranker finds for them (by source: entity, name, profile, claim, community, chunk, vector). */
async function findCandidates(db: PoolClient, question: string, vector: number[] | undefined) {
  const { query: tsquery, lexemes } = (await db.query<{ query: string; lexemes: string[] }>(sql.QUESTION_QUERY, [question])).rows[0]
  const candidates: Candidate[] = (await db.query<Candidate>(sql.CANDIDATES, [tsquery, lexemes, questionNames(question), CANDIDATES_PER_RANKER])).rows
  if (vector?.length) candidates.push(...(await db.query<Candidate>(sql.NEAREST_CHUNKS, [vector, CANDIDATES_PER_RANKER])).rows)
  const from = (source: string) => candidates.filter((c) => c.source === source)
  return { terms: { tsquery, lexemes }, from }
}

function claimAndTextRankings(claims: Map<string, WalkedClaim>, entityOrder: Fused[], from: (source: string) => Candidate[]): Ranking[] {
  return [
    // A claim's words count by how many of the question's it holds; its rank only breaks ties.
    {
      name: 'claim text',
      keys: rankBy(
        claims.values(),
        (c) => `claim:${c.id}`,
        (c) => (c.coverage >= 2 ? c.coverage + c.text_rank : 0),
      ),
    },
    {
      name: 'graph',
      keys: rankBy(
        claims.values(),
        (c) => `claim:${c.id}`,
        (c) => c.graph * (1 + c.coverage),
      ),
    },
    { name: 'entity', keys: entityOrder.map((f) => `entity:${f.key}`) },
    { name: 'chunk text', keys: from('chunk').map((c) => `chunk:${c.id}`), weight: CHUNK_WEIGHT },
    { name: 'chunk vector', keys: from('vector').map((c) => `chunk:${c.id}`), weight: CHUNK_WEIGHT },
  ]
}

function communityRanking(communityRows: RecalledCommunity[], communityHits: string[]): Ranking {
  return {
    name: 'community',
    keys: rankBy(
      communityRows,
      (m) => `community:${m.id}`,
      (m) => m.members.length + (communityHits.includes(m.id) ? 1 : 0) + 1 / (1 + m.level),
    ),
    weight: 0.5,
  }
}

async function readCommunities(db: PoolClient, entityIds: string[], hits: string[]): Promise<RecalledCommunity[]> {
  if (!entityIds.length && !hits.length) return []
  const { rows } = await db.query(sql.COMMUNITIES, [entityIds, hits])
  return rows.map((r) => ({ id: r.id, level: r.level, title: r.title, summary: r.summary, size: r.size, members: r.members, scopes: r.scopes }))
}
