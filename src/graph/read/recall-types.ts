/** What recall returns (docs/memory-graph.md, "Reading the graph"). */

export interface RecallOptions {
  /** The reader's scope set: rows whose scopes are contained in it are visible, nothing else. */
  readScopes: Iterable<string>
  query: string
  /** Ranked items to return (default 10). */
  limit?: number
  /**
   * Answer by when facts were true: leave out claims whose time (as their text dates it, or as a
   * later value closed them) lies wholly before or after this. A Date is the day it falls on (UTC);
   * text is a period ("1997", "2001-04", "April 2001", "2010-06-01"). Claims no text dated are
   * kept. docs/memory-graph.md, "Time on every fact".
   */
  asOf?: Date | string
  /** Answer as the graph stood then: leave out claims first recorded after it, and claims superseded at or before it. */
  knownAt?: Date
  /** The question's vector, when embeddings are configured: chunks are ranked by it too. */
  queryVector?: number[]
  /**
   * The floor on the abstention model's confidence: below it recall returns nothing (abstained).
   * Default RECALL_FLOOR, calibrated on the evaluation's words, or 0 when a queryVector is given
   * (no embedding model was there to calibrate on); 0 returns whatever ranks.
   */
  floor?: number
}

export type RecallKind = 'claim' | 'entity' | 'community' | 'chunk'

export interface RecallItem {
  kind: RecallKind
  id: string
  /** Reciprocal-rank fusion of the rankings that found it. */
  score: number
  /** One line a person can read. */
  text: string
  /** The rankings that found it, with its place in each (1 is first). */
  why: string[]
  scopes: string[]
  /** The share of the question's weight (its lexemes, rarer ones weighing more) this item's text holds. */
  support: number
}

export interface RecallSource {
  chunkId: string
  documentId: string | null
  title: string | null
  charStart: number | null
  charEnd: number | null
}

export interface RecalledClaim {
  id: string
  subjectId: string
  subject: string
  predicate: string
  objectId: string | null
  object: string
  weight: number
  /** When the graph first recorded the claim (what `knownAt` compares). */
  recordedAt: string
  /** The same as `recordedAt`, under its 0.1.0 name. */
  validFrom: string
  /** When it became true as its text says ("1993", "April 2001"), if the text said. */
  statedFrom: string | null
  /** When it stopped being true, as its text says ("March 1998") or as the later value that replaced it began. */
  statedUntil: string | null
  /** The claim whose later value replaced this one (a single-valued fact), if any. */
  endedBy: string | null
  lastReinforced: string
  /** How far from the entities the question named: 0 found by its own text, 1 or 2 hops. */
  hops: number
  scopes: string[]
  sources: RecallSource[]
}

export interface RecalledEntity {
  id: string
  name: string
  kind: string
  /** The entity's profile summary, when one was written. */
  description: string | null
  aliases: string[]
  mentions: number
  scopes: string[]
}

export interface RecalledCommunity {
  id: string
  level: number
  title: string
  summary: string
  size: number
  /** The matched entities that are members. */
  members: string[]
  scopes: string[]
}

export interface RecalledChunk {
  id: string
  documentId: string | null
  title: string | null
  charStart: number | null
  charEnd: number | null
  text: string
  scopes: string[]
}

/** What recall's abstention model read, by feature name (docs/memory-graph.md, "Recall that knows when it doesn't know"). */
export type RecallFeatures = Record<string, number>

export interface RecallResult {
  query: string
  scopes: string[]
  /** The `asOf` asked, as given (an ISO moment for a Date). */
  asOf: string | null
  /** True when the confidence fell below the floor: the set holds nothing that answers the question. */
  abstained: boolean
  /** The best item's support. */
  support: number
  /** The abstention model's confidence, 0 to 1, that the first items answer the question, and the floor it was held to. */
  confidence: number
  floor: number
  /** What the confidence was computed from: the question read against the first items. */
  features: RecallFeatures
  /** The period `asOf` names: its first day and the first day after it. */
  asOfSpan: { start: string; end: string } | null
  knownAt: string | null
  items: RecallItem[]
  claims: RecalledClaim[]
  entities: RecalledEntity[]
  communities: RecalledCommunity[]
  chunks: RecalledChunk[]
}

/** What the rankings return, before the relevance floor weighs each item's support. */
export type RankedResult = Omit<RecallResult, 'abstained' | 'support' | 'confidence' | 'floor' | 'features' | 'items'> & {
  items: Omit<RecallItem, 'support'>[]
}
