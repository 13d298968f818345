/**
 * The resolution section of `npm run eval:graph`: the dedup pass's merge rules run over labeled
 * sets of names (test/fixtures/graph-eval/name-sets.json, and each labeled passage's names and
 * aliases), scored on every pair of different names within a set: precision and recall of
 * "these two are one", before (same name and trigrams only) and after (every rule but
 * embeddings, which need an endpoint), per split; and how often the name kept is the labeled one.
 */
import { readFileSync } from 'node:fs'
import { normalizeName } from '../../src/graph/extract/normalize.js'
import { betterName } from '../../src/graph/resolve/better-name.js'
import { findMerges, type MergePair } from '../../src/graph/resolve/find-merges.js'
import type { LabeledSet } from './labels.js'

interface LabeledName {
  name: string
  kind: string
  entity: string
  kept?: boolean
}

interface NameSet {
  id: string
  split: 'tune' | 'held-out'
  names: LabeledName[]
}

const SIMILARITY = 0.8 // AIZK_DEDUP_SIMILARITY's default

/** pg_trgm's trigrams: words of letters and digits, lower-cased, padded with two spaces before and one after. */
export function trigrams(name: string): string[] {
  const out = new Set<string>()
  for (const word of name
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)) {
    const padded = `  ${word} `
    for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3))
  }
  return [...out]
}

function passageSets(labels: LabeledSet): NameSet[] {
  return labels.passages.map((p) => ({
    id: p.id,
    split: p.split,
    names: p.entities
      .filter((e) => e.kind !== 'optional')
      .flatMap((e) => [e.name, ...e.aliases].map((name, i) => ({ name, kind: e.kind, entity: e.name, kept: i === 0 }))),
  }))
}

interface Score {
  tp: number
  fp: number
  fn: number
  keptRight: number
  keptGroups: number
  wrong: string[]
}

async function scoreSet(set: NameSet, keep: (p: MergePair) => boolean, score: Score): Promise<void> {
  const unique = new Map<string, LabeledName>()
  for (const n of set.names) if (!unique.has(`${n.kind}\u0000${normalizeName(n.name)}`)) unique.set(`${n.kind}\u0000${normalizeName(n.name)}`, n)
  const names = [...unique.values()]
  const entities = names.map((n, i) => ({ id: String(i), name: normalizeName(n.name), kind: n.kind, trigrams: trigrams(normalizeName(n.name)) }))
  const parent = names.map((_, i) => i)
  const find = (x: number): number => (parent[x] === x ? x : find(parent[x]))
  for (const p of (await findMerges(entities, { similarity: SIMILARITY })).filter(keep)) parent[find(Number(p.a))] = find(Number(p.b))
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      if (normalizeName(names[i].name) === normalizeName(names[j].name)) continue
      const same = names[i].entity === names[j].entity
      const merged = find(i) === find(j)
      if (merged && same) score.tp++
      else if (merged) {
        score.fp++
        score.wrong.push(`${names[i].name} = ${names[j].name}`)
      } else if (same) {
        score.fn++
        if (process.env.EVAL_VERBOSE) console.log(`    missed ${names[i].name} = ${names[j].name}`)
      }
    }
  }
  const groups = new Map<number, LabeledName[]>()
  for (const [i, n] of names.entries()) groups.set(find(i), [...(groups.get(find(i)) ?? []), n])
  for (const members of groups.values()) {
    const labeled = members.find((m) => m.kept)
    if (members.length < 2 || !labeled || new Set(members.map((m) => m.entity)).size > 1) continue
    score.keptGroups++
    const kept = betterName(members.map((m) => ({ name: m.name, mentions: 0, kind: m.kind })))
    if (kept === labeled.name) score.keptRight++
    else if (process.env.EVAL_VERBOSE) console.log(`    kept ${kept}, labeled ${labeled.name}`)
  }
}

const ratio = (a: number, b: number) => (b === 0 ? 'n/a' : (a / b).toFixed(2))

export async function printResolution(labels: LabeledSet, nameSetsPath: string): Promise<void> {
  const nameSets = (JSON.parse(readFileSync(nameSetsPath, 'utf8')) as { sets: NameSet[] }).sets
  const sources: [string, NameSet[]][] = [
    ['name sets (name-sets.json)', nameSets],
    ['labeled passages (names and aliases)', passageSets(labels)],
  ]
  const before = (p: MergePair) => p.rule === 'same-name' || p.rule === 'similar-name'
  for (const [label, sets] of sources) {
    for (const split of ['tune', 'held-out'] as const) {
      const chosen = sets.filter((s) => s.split === split)
      const line: string[] = []
      let wrong: string[] = []
      for (const [name, keep] of [
        ['before', before],
        ['after', () => true],
      ] as const) {
        const s: Score = { tp: 0, fp: 0, fn: 0, keptRight: 0, keptGroups: 0, wrong: [] }
        for (const set of chosen) await scoreSet(set, keep, s)
        line.push(
          `${name}: precision ${ratio(s.tp, s.tp + s.fp)} recall ${ratio(s.tp, s.tp + s.fn)} (${s.tp} right, ${s.fp} wrong, ${s.fn} missed)${name === 'after' ? `; better name kept ${s.keptRight}/${s.keptGroups}` : ''}`,
        )
        if (name === 'after') wrong = s.wrong
      }
      console.log(`\nresolution, ${label}, ${split} split (${chosen.length} sets)`)
      for (const l of line) console.log(`  ${l}`)
      if (wrong.length) console.log(`  wrong merges: ${wrong.slice(0, 8).join('; ')}`)
    }
  }
}
