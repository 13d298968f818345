/**
 * What recall's abstention reads (docs/memory-graph.md, "Recall that knows when it doesn't know"):
 * the question against its best items, as numbers a small logistic model weighs
 * (recall-model.ts). Each item's support is the share of the question's weight its best window of
 * two sentences holds; the features look at the first items only, where an answer must be.
 */
import type { PoolClient } from 'pg'
import { answerTypeOf, holdsAnswerType } from './answer-type.js'
import { groupsHeld, shareOf, type WordGroup, windowsOf } from './recall-floor.js'
import type { RecallKind } from './recall-types.js'

/** The items an answer must be among (hit@5). */
export const TOP_ITEMS = 5

export const FEATURES = [
  /** The best share of the question's weight in a window of two sentences of one item. */
  'window',
  /** ... in one sentence. */
  'sentence',
  /** ... anywhere in one item. */
  'item',
  /** The first item's window share. */
  'first',
  /** The best window share among graph items (claims, entities, communities). */
  'graph',
  /** Whether some window holds the question's rarest word. */
  'rarest',
  /** The best window share of the question's rare words (weighing at least 3/4 of the rarest's). */
  'rareShare',
  /** The weight of the heaviest question word no item holds (0 when all are held). */
  'unheld',
  /** The share of the question's weight in words no chunk of the set holds. */
  'unknown',
  /** Whether the question's form asks for a kind of answer (who, when, how many, what is). */
  'typed',
  /** It does, and no item's best window holds an answer of that kind. */
  'typeMissing',
  /** The number of the question's words, over 10 (at most 1): a short question is easily covered. */
  'words',
  /** The question's words' mean weight: rare words on the whole. */
  'rareness',
] as const

export type FeatureName = (typeof FEATURES)[number]
export type Features = Record<FeatureName, number>

export interface JudgedItem {
  kind: RecallKind
  text: string
}

/** Each text split into its windows, its sentences and itself, for one lookup. */
function piecesOf(text: string) {
  const sentences = text.split(/(?<=[.!?:])\s+|\n+/).filter((s) => s.trim())
  return { windows: windowsOf(text), sentences: sentences.length ? sentences : [text], whole: [text] }
}

/** Each item's support, and the features of the question against the first items. */
export async function judge(db: PoolClient, question: string, items: JudgedItem[], groups: WordGroup[]): Promise<{ supports: number[]; features: Features }> {
  const pieces = items.map((i) => piecesOf(i.text))
  const flat = pieces.flatMap((p) => [...p.windows, ...p.sentences, ...p.whole])
  const held = await groupsHeld(db, flat, groups)
  let at = 0
  const take = (n: number) => {
    const rows = held.slice(at, at + n)
    at += n
    return rows
  }
  const perItem = pieces.map((p) => ({ windows: take(p.windows.length), sentences: take(p.sentences.length), whole: take(1)[0] }))
  const best = (rows: boolean[][]) => Math.max(0, ...rows.map((r) => shareOf(r, groups)))
  const supports = perItem.map((p) => best(p.windows))
  const top = perItem.slice(0, TOP_ITEMS)
  const type = answerTypeOf(question)
  const rarest = groups.reduce((r, g, i) => (g.weight > (groups[r]?.weight ?? -1) ? i : r), -1)
  const heaviest = Math.max(0, ...groups.map((g) => g.weight))
  const rare = groups.map((g) => (g.weight >= 0.75 * heaviest ? g : { ...g, weight: 0 }))
  const anywhere = groups.map((_, g) => top.some((p) => p.whole?.[g]))
  const total = groups.reduce((a, g) => a + g.weight, 0)
  const typeFound =
    type !== null &&
    top.some((p, i) => p.windows.some((w, j) => shareOf(w, groups) >= supports[i] && supports[i] > 0 && holdsAnswerType(pieces[i].windows[j], type, question)))
  const features: Features = {
    window: Math.max(0, ...supports.slice(0, TOP_ITEMS)),
    sentence: Math.max(0, ...top.map((p) => best(p.sentences))),
    item: Math.max(0, ...top.map((p) => best([p.whole]))),
    first: supports[0] ?? 0,
    graph: Math.max(0, ...top.flatMap((_, i) => (items[i].kind === 'chunk' ? [] : [supports[i]]))),
    rarest: rarest >= 0 && top.some((p) => p.windows.some((w) => w[rarest])) ? 1 : 0,
    rareShare: Math.max(0, ...top.flatMap((p) => p.windows.map((w) => shareOf(w, rare)))),
    unheld: Math.max(0, ...groups.flatMap((g, i) => (anywhere[i] ? [] : [g.weight]))),
    unknown: total ? groups.reduce((a, g) => a + (g.weight >= 1 ? g.weight : 0), 0) / total : 0,
    typed: type === null ? 0 : 1,
    typeMissing: type !== null && !typeFound ? 1 : 0,
    words: Math.min(groups.length, 10) / 10,
    rareness: groups.length ? total / groups.length : 0,
  }
  return { supports, features }
}
