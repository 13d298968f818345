/**
 * The recall evaluation's questions as examples for the abstention model: fit leaving one package
 * out, and kept in test/fixtures/graph-eval/recall-features.json, from which `npm run fit:recall`
 * fits the shipped weights (docs/memory-graph.md, "The recall evaluation").
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { FEATURES } from '../../src/graph/read/recall-features.js'
import type { RecallModel } from '../../src/graph/read/recall-model.js'
import { type Example, fitModel } from './fit-model.js'

export type { Example }

export const FIXTURE = new URL('../../test/fixtures/graph-eval/recall-features.json', import.meta.url)

export interface FixtureExample extends Example {
  question: string
  set: 'A' | 'B'
}

interface Fixture {
  features: string[]
  examples: FixtureExample[]
}

/** Each package's model, fit on the other packages' questions. */
export function modelsLeavingOneOut(examples: Example[]): Map<string, RecallModel> {
  const packages = [...new Set(examples.map((e) => e.package))].sort()
  return new Map(packages.map((p) => [p, fitModel(examples.filter((e) => e.package !== p))]))
}

export function readFixture(): FixtureExample[] {
  const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Fixture
  if (fixture.features.join() !== FEATURES.join()) throw new Error(`${FIXTURE.pathname} names features ${fixture.features} where recall has ${FEATURES}`)
  return fixture.examples
}

const rounded = (x: number[]) => x.map((v) => Number(v.toFixed(6)))

/**
 * Writes this run's examples to the fixture (`write`), or says how many differ from it: a fixture
 * behind the code means the shipped weights were fit on other features.
 */
export function checkFixture(examples: FixtureExample[], write: boolean): string {
  const current = examples.map((e) => ({ question: e.question, set: e.set, package: e.package, answerable: e.answerable, hit: e.hit, x: rounded(e.x) }))
  if (write) {
    writeFileSync(FIXTURE, `${JSON.stringify({ features: FEATURES, examples: current }, null, 1)}\n`)
    return `wrote ${current.length} examples to ${FIXTURE.pathname}; now run npm run fit:recall`
  }
  let stored: FixtureExample[] = []
  try {
    stored = readFixture()
  } catch (e) {
    return `the features fixture cannot be read (${(e as Error).message}): run with --write, then npm run fit:recall`
  }
  const key = (e: Omit<FixtureExample, 'x'> & { x: number[] }) => JSON.stringify(e)
  const storedKeys = new Set(stored.map(key))
  const differ = current.filter((e) => !storedKeys.has(key(e))).length + Math.max(0, stored.length - current.length)
  // Extraction and ranking vary a little from run to run, so a few always differ; many mean the features changed.
  return differ
    ? `${differ} of ${current.length} examples differ from ${FIXTURE.pathname}, which the shipped weights were fit on; after a change to the features, run with --write, then npm run fit:recall`
    : `the examples match ${FIXTURE.pathname}, which the shipped weights were fit on`
}
