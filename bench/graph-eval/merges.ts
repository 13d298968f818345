/**
 * Merge precision on what an extractor really returns (docs/memory-graph.md, "The evaluation"):
 * the resolver's rules (findMerges, every rule but embeddings, at AIZK_DEDUP_SIMILARITY's default)
 * run over one package's extracted entities, as the dedup pass runs over one scope set, and the
 * surviving name chosen as it chooses it (betterName). Each name merged into a group is one merge:
 * right when its labeled identity is the display name's (one labeled entity's names and aliases
 * across the package's passages, joined by the package's `merges` labels), wrong when the
 * identities differ, a `merges` label says the two are not one, or the display name is no labeled
 * name of anything while the merged name is (the group is shown under a name that is not one of its
 * mentions' best form: Linux shown as "Loading Linux"). Merges between names nobody labeled are not judged.
 */
import type { CleanExtraction } from '../../src/graph/extract/extraction.js'
import { normalizeName } from '../../src/graph/extract/normalize.js'
import { definesAcronym } from '../../src/graph/resolve/acronym-definitions.js'
import { betterName } from '../../src/graph/resolve/better-name.js'
import { findMerges } from '../../src/graph/resolve/find-merges.js'
import { nameIndex } from './labels.js'
import { trigrams } from './resolution.js'
import type { MergeLabel, Passage } from './schema.js'

export const SIMILARITY = 0.8 // AIZK_DEDUP_SIMILARITY's default

export interface MergeScore {
  right: number
  wrong: number
  unjudged: number
  examples: string[]
}

export const zeroMerges = (): MergeScore => ({ right: 0, wrong: 0, unjudged: 0, examples: [] })

class UnionFind {
  private parent = new Map<string, string>()
  find(x: string): string {
    const p = this.parent.get(x) ?? x
    if (p === x) return x
    const root = this.find(p)
    this.parent.set(x, root)
    return root
  }
  union(a: string, b: string): void {
    this.parent.set(this.find(a), this.find(b))
  }
}

/** Each normalized name to its labeled identity across the package, joined by `same` merge labels. */
function identities(passages: readonly Passage[], labels: readonly MergeLabel[]) {
  const identity = new UnionFind()
  const labeled = new Set<string>()
  for (const p of passages) {
    for (const [name, e] of nameIndex(p.entities)) {
      if (e.kind === 'optional') continue
      labeled.add(name)
      identity.union(name, `entity:${normalizeName(e.name)}`)
    }
  }
  const apart = new Set<string>()
  for (const m of labels) {
    const [a, b] = m.names.map(normalizeName)
    if (m.same) {
      identity.union(a, b)
      labeled.add(a)
      labeled.add(b)
    } else apart.add(`${a}\u0000${b}`).add(`${b}\u0000${a}`)
  }
  return { of: (name: string) => (labeled.has(name) ? identity.find(name) : undefined), apart }
}

type FindPairs = (entities: { id: string; name: string; kind: string; trigrams: string[] }[]) => Promise<{ a: string; b: string }[]>

/** The dedup pass's rules; a two-letter acronym's definition is looked for in the package's passages, as the pass looks in the set's chunks. */
const resolverPairs =
  (texts: readonly string[]): FindPairs =>
  (entities) => {
    const nameOf = new Map(entities.map((e) => [e.id, e.name]))
    const defined = ([a, b]: [string, string]) => texts.some((t) => definesAcronym(t, nameOf.get(a) ?? '', nameOf.get(b) ?? ''))
    return findMerges(entities, { similarity: SIMILARITY, definitions: async (pairs) => pairs.filter(defined) })
  }

/** `pairs` is the resolver's rules unless a test gives its own. */
export async function scoreMerges(
  passages: readonly Passage[],
  extracted: readonly CleanExtraction['entities'][],
  labels: readonly MergeLabel[],
  into: MergeScore,
  pairs: FindPairs = resolverPairs(passages.map((p) => p.text)),
): Promise<MergeScore> {
  const entities = new Map<string, { id: string; name: string; kind: string; trigrams: string[]; shown: Map<string, number> }>()
  for (const list of extracted) {
    for (const e of list) {
      const key = `${e.kind}\u0000${e.normalizedName}`
      const entity = entities.get(key) ?? {
        id: String(entities.size),
        name: e.normalizedName,
        kind: e.kind,
        trigrams: trigrams(e.normalizedName),
        shown: new Map(),
      }
      entity.shown.set(e.name, (entity.shown.get(e.name) ?? 0) + e.mentions)
      entities.set(key, entity)
    }
  }
  const all = [...entities.values()]
  const groups = new UnionFind()
  for (const pair of await pairs(all)) groups.union(pair.a, pair.b)
  const members = new Map<string, typeof all>()
  for (const e of all) members.set(groups.find(e.id), [...(members.get(groups.find(e.id)) ?? []), e])
  const { of, apart } = identities(passages, labels)
  for (const group of members.values()) {
    const names = [...new Set(group.map((e) => e.name))]
    if (names.length < 2) continue
    const display = betterName(group.flatMap((e) => [...e.shown].map(([name, mentions]) => ({ name, mentions, kind: e.kind }))))
    const shown = normalizeName(display)
    for (const name of names.filter((n) => n !== shown)) {
      const mine = of(name)
      const theirs = of(shown)
      if (apart.has(`${name}\u0000${shown}`) || (mine !== undefined && mine !== theirs)) {
        into.wrong++
        if (into.examples.length < 8) into.examples.push(`${name} shown as "${display}"`)
      } else if (mine === undefined) into.unjudged++
      else into.right++
    }
  }
  return into
}
