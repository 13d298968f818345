/**
 * `npm run train:graph`: fits the built-in extractor's learned layer on every labeled package
 * (docs/memory-graph.md, "A learned layer, scored leaving one package out") and writes the
 * shipped model, src/graph/extract/learned/entity-weights.json. Deterministic: the same labels
 * write the same file (test/unit/entity-model.test.ts checks the shipped one is current).
 */
import { writeFileSync } from 'node:fs'
import { examplesByPackage, fitLeavingOut } from './graph-eval/entity-examples.js'
import { loadEvaluation } from './graph-eval/packages.js'

const fixtures = new URL('../test/fixtures/graph-eval/', import.meta.url)
const out = new URL('../src/graph/extract/learned/entity-weights.json', import.meta.url)
const examples = examplesByPackage(loadEvaluation(fixtures.pathname).packages)
const model = fitLeavingOut(examples, undefined)
writeFileSync(out, `${JSON.stringify(model)}\n`)
const count = [...examples.values()].reduce((n, xs) => n + xs.length, 0)
console.log(
  `${out.pathname}: fit on ${examples.size} packages, ${count} candidates; ${Object.keys(model.keep.weights).length} keep and ${Object.keys(model.kind.weights).length} kind features`,
)
