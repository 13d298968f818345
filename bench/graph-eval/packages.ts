/**
 * The evaluation's packages (docs/memory-graph.md, "The evaluation"): the five of the old set
 * (passages.json), which the built-in extractor was tuned on, and one file per package under
 * packages/, never tuned on. Every file is checked (schema.ts, labels.ts) before anything runs.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { checkPassages, type LabeledSet, loadLabeledSet, parseLabels } from './labels.js'
import { type FunctionalLabel, type MergeLabel, type Passage, packageFileSchema } from './schema.js'

export interface EvalPackage {
  name: string
  /** The built-in extractor was changed looking at this package's text or labels. */
  tuned: boolean
  genre: string
  generator: string
  passages: Passage[]
  merges: MergeLabel[]
}

/** Where single-valued facts are scored: one new package, or the whole old set (its conflicts span its packages). */
export interface FunctionalScope {
  name: string
  tuned: boolean
  passages: Passage[]
  functional: FunctionalLabel[]
}

export interface Evaluation {
  old: LabeledSet
  packages: EvalPackage[]
  scopes: FunctionalScope[]
}

/** The old set's passages by package ("debian-faq" holds both FAQ releases). */
function oldPackages(old: LabeledSet): EvalPackage[] {
  const byName = new Map<string, EvalPackage>()
  for (const p of old.passages) {
    const name = p.source.package
    const pkg = byName.get(name) ?? {
      name,
      tuned: true,
      genre: p.genre,
      generator: p.source.converted?.startsWith('HTML') ? 'HTML' : 'text',
      passages: [],
      merges: [],
    }
    if (!pkg.genre.split(', ').includes(p.genre)) pkg.genre += `, ${p.genre}`
    pkg.passages.push(p)
    byName.set(name, pkg)
  }
  return [...byName.values()]
}

export function loadEvaluation(fixtures: string): Evaluation {
  const old = loadLabeledSet(join(fixtures, 'passages.json'))
  const ids = new Set(old.passages.map((p) => p.id))
  const packages = oldPackages(old)
  const scopes: FunctionalScope[] = [{ name: 'old set (5 packages)', tuned: true, passages: old.passages, functional: old.functional ?? [] }]
  const dir = join(fixtures, 'packages')
  let files: string[] = []
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
  } catch {
    // No package files yet: the old set alone.
  }
  for (const file of files) {
    const path = join(dir, file)
    const labels = parseLabels(path, packageFileSchema)
    checkPassages(path, labels.passages, ids)
    if (packages.some((p) => p.name === labels.package))
      throw new Error(`${path}: package ${labels.package} is already labeled elsewhere; one file per package`)
    packages.push({
      name: labels.package,
      tuned: false,
      genre: labels.genre,
      generator: labels.generator,
      passages: labels.passages,
      merges: labels.merges ?? [],
    })
    scopes.push({ name: labels.package, tuned: false, passages: labels.passages, functional: labels.functional ?? [] })
  }
  return { old, packages, scopes }
}
