/**
 * What recall's abstention reads (docs/memory-graph.md, "Recall that knows when it doesn't know"):
 * the question against its best items, as numbers a small logistic model weighs
 * (recall-model.ts). Each item's support is the share of the question's weight its best window of
 * two sentences holds; the features look at the first items only, where an answer must be.
 */
import type { PoolClient } from 'pg'
import { answerTypeOf, holdsAnswerType } from './answer-type.js'
import { groupPositions, shareOf, type WordGroup, windowsOf } from './recall-floor.js'
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
  /** The best sentence share times how close together its words stand (question words over the words they span). */
  'compact',
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

/** How many of the question's words a text holds over the fewest words that span them all (1 for one word). */
export function closeness(positions: number[][]): number {
  const marks = positions.flatMap((ps, g) => ps.map((p) => ({ p, g }))).sort((a, b) => a.p - b.p)
  const wanted = new Set(marks.map((m) => m.g)).size
  if (wanted <= 1) return 1
  const seen = new Map<number, number>()
  let best = Number.POSITIVE_INFINITY
  let from = 0
  for (const m of marks) {
    seen.set(m.g, (seen.get(m.g) ?? 0) + 1)
    while (seen.size === wanted) {
      best = Math.min(best, m.p - marks[from].p + 1)
      const g = marks[from].g
      const n = (seen.get(g) ?? 0) - 1
      if (n) seen.set(g, n)
      else seen.delete(g)
      from++
    }
  }
  return wanted / best
}

/** Each item's support, and the features of the question against the first items. */
export async function judge(db: PoolClient, question: string, items: JudgedItem[], groups: WordGroup[]): Promise<{ supports: number[]; features: Features }> {
  const pieces = items.map((i) => piecesOf(i.text))
  const flat = pieces.flatMap((p) => [...p.windows, ...p.sentences, ...p.whole])
  const positions = await groupPositions(db, flat, groups)
  const held = positions.map((row) => row.map((p) => p.length > 0))
  let at = 0
  const perItem = pieces.map((p) => {
    const sentencesAt = at + p.windows.length
    at = sentencesAt + p.sentences.length + 1
    return {
      windows: held.slice(sentencesAt - p.windows.length, sentencesAt),
      sentences: held.slice(sentencesAt, sentencesAt + p.sentences.length),
      sentencePositions: positions.slice(sentencesAt, sentencesAt + p.sentences.length),
      whole: held[sentencesAt + p.sentences.length],
    }
  })
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
    compact: Math.max(0, ...top.flatMap((p) => p.sentences.map((row, j) => shareOf(row, groups) * closeness(p.sentencePositions[j])))),
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
