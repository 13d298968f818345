/**
 * What `npm run eval:recall` asks (docs/memory-graph.md, "The recall evaluation"): the labeled
 * passages split by package into two scope sets, the answerable questions asked of the set that
 * holds their passage, the same questions asked of the other set where no passage there holds the
 * answer (the answer is only in another scope set), and questions no passage answers at all.
 */
import { readFileSync } from 'node:fs'
import type { Passage } from '../graph-eval/labels.js'
import { loadEvaluation } from '../graph-eval/packages.js'

export interface Question {
  passage: string
  question: string
  facts: string[][]
}

export interface Probe {
  question: string
  /** The package whose passage answers it; 'nowhere' for the questions nothing answers. */
  package: string
  /** The facts a right answer holds; empty when the right answer is nothing. */
  facts: string[][]
  set: 'A' | 'B'
}

const fixtures = new URL('../../test/fixtures/graph-eval/', import.meta.url)

/** A labeled passage with the package it is scored under (its file's, for packages/*.json). */
export interface EvalPassage {
  passage: Passage
  package: string
}

/** Every labeled passage, checked as eval:graph checks them. */
export function loadPassages(): EvalPassage[] {
  return loadEvaluation(fixtures.pathname).packages.flatMap((pkg) => pkg.passages.filter((p) => !p.seeded).map((passage) => ({ passage, package: pkg.name })))
}

function loadQuestions(file: string): Question[] {
  return (JSON.parse(readFileSync(new URL(file, fixtures), 'utf8')) as { questions: Question[] }).questions
}

/** Packages go to set A or B alternately in name order, so each set holds several genres. */
export function setOf(packages: string[]): Map<string, 'A' | 'B'> {
  return new Map([...new Set(packages)].sort().map((p, i) => [p, i % 2 === 0 ? 'A' : 'B']))
}

const holds = (text: string, fact: string[]) => fact.every((t) => text.toLowerCase().includes(t.toLowerCase()))

/** Whether some passage of these holds every fact (each fact within one passage). */
const answeredBy = (passages: EvalPassage[], facts: string[][]) => facts.every((f) => passages.some((p) => holds(p.passage.text, f)))

export function probes(passages: EvalPassage[], sets: Map<string, 'A' | 'B'>): Probe[] {
  const byId = new Map(passages.map((p) => [p.passage.id, p]))
  const inSet = (s: 'A' | 'B') => passages.filter((p) => sets.get(p.package) === s)
  const out: Probe[] = []
  for (const q of [...loadQuestions('recall-questions.json'), ...loadQuestions('recall-questions-packages.json')]) {
    const p = byId.get(q.passage)
    if (!p) continue
    const own = sets.get(p.package) as 'A' | 'B'
    const other = own === 'A' ? 'B' : 'A'
    out.push({ question: q.question, package: p.package, facts: q.facts, set: own })
    if (!answeredBy(inSet(other), q.facts)) out.push({ question: q.question, package: p.package, facts: [], set: other })
  }
  for (const q of loadQuestions('recall-questions-unanswerable.json')) {
    for (const set of ['A', 'B'] as const) if (!answeredBy(inSet(set), q.facts)) out.push({ question: q.question, package: 'nowhere', facts: [], set })
  }
  return out
}
