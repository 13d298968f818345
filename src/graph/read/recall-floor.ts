/**
 * The words recall's abstention weighs (docs/memory-graph.md, "Recall that knows when it doesn't
 * know"). Fused ranks say which items are best, not whether any is good: a question about something
 * the set never mentions still has a first item. Support is an absolute measure: the share of the
 * question's weight an item's text holds, each lexeme weighted by how rare it is among the reader's
 * chunks (a lexeme no chunk holds weighs 1, one in a thousand chunks about 0.13).
 */
import type { PoolClient } from 'pg'
import { questionWordForms } from './question-terms.js'
import * as sql from './sql/recall-sql.js'

/** Past this many chunks a lexeme is common, whatever the exact count. */
const CHUNK_COUNT_CAP = 1000

/**
 * One word of the question: its forms, each the lexemes the text search makes of it ("4.2BSD" is two,
 * both needed), any one form enough; weighed by how many of the reader's chunks hold it.
 */
export interface WordGroup {
  forms: string[][]
  weight: number
}

export async function weighedGroups(db: PoolClient, question: string): Promise<WordGroup[]> {
  const words = questionWordForms(question)
  const flat = words.flatMap((forms, word) => forms.map((form) => ({ word, form })))
  const { rows } = await db.query<{ lexemes: string[] }>(sql.FORM_LEXEMES, [flat.map((f) => f.form)])
  const byWord = new Map<number, string[][]>()
  rows.forEach((r, i) => {
    if (!r.lexemes.length) return
    const forms = byWord.get(flat[i].word) ?? []
    if (!forms.some((f) => f.join() === r.lexemes.join())) forms.push(r.lexemes)
    byWord.set(flat[i].word, forms)
  })
  // One word said twice counts once.
  const groups = [
    ...new Map(
      [...byWord.values()].map((forms) => [
        forms
          .map((f) => f.join(' '))
          .sort()
          .join('|'),
        forms,
      ]),
    ).values(),
  ]
  const all = [...new Set(groups.flat(2))]
  if (!all.length) return []
  const counts = new Map((await db.query<{ lexeme: string; chunks: number }>(sql.LEXEME_CHUNKS, [all, CHUNK_COUNT_CAP])).rows.map((r) => [r.lexeme, r.chunks]))
  // A form is as common as its rarest lexeme; a word as common as its forms together.
  const chunksOf = (forms: string[][]) => forms.reduce((n, f) => n + Math.min(...f.map((l) => counts.get(l) ?? 0)), 0)
  return groups.map((forms) => ({ forms, weight: 1 / (1 + Math.log1p(Math.min(CHUNK_COUNT_CAP, chunksOf(forms)))) }))
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

/**
 * Where each text holds each of the question's word groups: one row per text, the word positions of
 * each group (empty when the text does not hold it; a form of several lexemes at its first one's).
 */
export async function groupPositions(db: PoolClient, texts: string[], groups: WordGroup[]): Promise<number[][][]> {
  if (!texts.length || !groups.length) return texts.map(() => groups.map(() => []))
  const { rows } = await db.query<{ held: Record<string, number[]> }>(sql.LEXEME_POSITIONS, [texts, [...new Set(groups.flatMap((g) => g.forms.flat()))]])
  return rows.map((r) => groups.map((g) => g.forms.flatMap((f) => (f.every((l) => r.held[l]) ? r.held[f[0]] : []))))
}

/** The share of the question's weight a text holding these groups holds. */
export function shareOf(held: boolean[], groups: WordGroup[]): number {
  const total = groups.reduce((a, g) => a + g.weight, 0)
  return total === 0 ? 0 : groups.reduce((sum, g, i) => sum + (held[i] ? g.weight : 0), 0) / total
}
