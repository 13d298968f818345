/**
 * `npm run train:graph`: fits the built-in extractor's learned layer on every labeled package
 * (docs/memory-graph.md, "A learned layer, scored leaving one package out") and writes the
 * shipped entity model, src/graph/extract/learned/entity-weights.json (the claim model is
 * measured by the evaluation, not shipped). Deterministic: the same labels and rules write the
 * same file (test/unit/entity-model.test.ts checks the shipped one is current).
 */
import { writeFileSync } from 'node:fs'
import { examplesByPackage, fitLeavingOut } from './graph-eval/entity-examples.js'
import { loadEvaluation } from './graph-eval/packages.js'

const fixtures = new URL('../test/fixtures/graph-eval/', import.meta.url)
const learned = new URL('../src/graph/extract/learned/', import.meta.url)
const { packages } = loadEvaluation(fixtures.pathname)
const examples = examplesByPackage(packages)
const model = fitLeavingOut(examples, undefined)
writeFileSync(new URL('entity-weights.json', learned), `${JSON.stringify(model)}\n`)
const count = [...examples.values()].reduce((n, xs) => n + xs.length, 0)
console.log(
  `entity-weights.json: fit on ${examples.size} packages, ${count} candidates; ${Object.keys(model.keep.weights).length} keep and ${Object.keys(model.kind.weights).length} kind features`,
)
