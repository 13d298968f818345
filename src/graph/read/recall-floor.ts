/**
 * Recall's relevance floor (docs/memory-graph.md, "Recall that knows when it doesn't know").
 * Fused ranks say which items are best, not whether any is good: a question about something the
 * set never mentions still has a first item. Support is an absolute measure: the share of the
 * question's weight an item's text holds, each lexeme weighted by how rare it is among the
 * reader's chunks (a lexeme no chunk holds weighs 1, one in a thousand chunks about 0.13). When no
 * item reaches the floor, recall answers nothing.
 */
import type { PoolClient } from 'pg'
import type { RankedResult, RecallResult } from './recall-types.js'
import * as sql from './sql/recall-sql.js'

/** Calibrated leave-one-package-out on `npm run eval:recall` (docs/memory-graph.md). */
export const RECALL_FLOOR = 0.425
/** Past this many chunks a lexeme is common, whatever the exact count. */
const CHUNK_COUNT_CAP = 1000

export type LexemeWeights = Map<string, number>

export async function lexemeWeights(db: PoolClient, lexemes: string[]): Promise<LexemeWeights> {
  if (!lexemes.length) return new Map()
  const { rows } = await db.query<{ lexeme: string; chunks: number }>(sql.LEXEME_CHUNKS, [lexemes, CHUNK_COUNT_CAP])
  return new Map(rows.map((r) => [r.lexeme, 1 / (1 + Math.log1p(r.chunks))]))
}

/**
 * Two neighbouring sentences of a text: the words that answer a question stand close together, and
 * a long chunk holding them pages apart answers nothing.
 */
export function windowsOf(text: string): string[] {
  const sentences = text.split(/(?<=[.!?:])\s+|\n+/).filter((s) => s.trim())
  if (sentences.length <= 2) return [text]
  return sentences.slice(0, -1).map((s, i) => `${s} ${sentences[i + 1]}`)
}

/** Each text's support: the weight of the question's lexemes its best window holds over the weight of all of them. */
export async function supportOf(db: PoolClient, texts: string[], weights: LexemeWeights): Promise<number[]> {
  const total = [...weights.values()].reduce((a, b) => a + b, 0)
  if (!texts.length || total === 0) return texts.map(() => 0)
  const windows = texts.map(windowsOf)
  const { rows } = await db.query<{ held: string[] }>(sql.LEXEMES_HELD, [windows.flat(), [...weights.keys()]])
  const scores = rows.map((r) => r.held.reduce((sum, l) => sum + (weights.get(l) ?? 0), 0) / total)
  const starts = windows.map((_, i) => windows.slice(0, i).reduce((n, w) => n + w.length, 0))
  return windows.map((w, i) => Math.max(...scores.slice(starts[i], starts[i] + w.length)))
}

/**
 * The result with each item's support, or nothing when no item reaches the floor (`abstained`).
 * A floor of 0 keeps every result.
 */
export async function applyFloor(db: PoolClient, result: RankedResult, floor: number): Promise<RecallResult> {
  const { lexemes } = (await db.query<{ lexemes: string[] }>(sql.QUESTION_QUERY, [result.query])).rows[0]
  const weights = await lexemeWeights(db, lexemes)
  const supports = await supportOf(db, result.items.map((i) => i.text), weights)
  const support = Number(Math.max(0, ...supports).toFixed(4))
  const items = result.items.map((item, i) => ({ ...item, support: Number(supports[i].toFixed(4)) }))
  if (support >= floor) return { ...result, items, support, floor, abstained: false }
  return { ...result, items: [], claims: [], entities: [], communities: [], chunks: [], support, floor, abstained: true }
}
