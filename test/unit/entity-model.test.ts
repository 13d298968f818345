/**
 * The built-in extractor's learned layer (docs/memory-graph.md, "A learned layer, scored leaving
 * one package out"): the shipped weights are what `npm run train:graph` writes from the labels
 * today, training labels candidates by the evaluation's matching rules, the fit is deterministic
 * and learns, and the extractor drops a dropped name with its claims.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { examplesByPackage, fitLeavingOut, labeledCandidates } from '../../bench/graph-eval/entity-examples.js'
import { loadEvaluation } from '../../bench/graph-eval/packages.js'
import type { Passage } from '../../bench/graph-eval/schema.js'
import { extractBuiltin } from '../../src/graph/extract/builtin-extractor.js'
import { type EntityModel, judgeCandidate, shippedEntityModel } from '../../src/graph/extract/learned/entity-model.js'
import { fitSoftmax } from '../../src/graph/extract/learned/logistic.js'

const fixtures = new URL('../fixtures/graph-eval/', import.meta.url).pathname

describe('the learned entity layer', () => {
  it('ships the weights training on all labeled packages writes (run npm run train:graph when this fails)', () => {
    const fresh = fitLeavingOut(examplesByPackage(loadEvaluation(fixtures).packages), undefined)
    assert.deepEqual(JSON.parse(JSON.stringify(fresh)), shippedEntityModel)
  })

  it('labels candidates as the evaluation scores them: a labeled name positive with its kind, a second name for it and an unlabeled one negative, an optional one left out', () => {
    const passage: Passage = {
      id: 'p',
      split: 'tune',
      genre: 'history',
      topics: ['t'],
      source: { package: 'x', version: '1', file: 'f', lines: '1' },
      text: 'Richard Stallman started GNU. The Free Software Foundation supports it, and RMS wrote the GPL.',
      entities: [
        { name: 'Richard Stallman', kind: 'person', aliases: ['RMS'] },
        { name: 'GNU', kind: 'optional', aliases: [] },
        { name: 'Free Software Foundation', kind: 'organisation', aliases: [] },
      ],
      claims: [],
    }
    const labeled = labeledCandidates(passage)
    assert.deepEqual(
      labeled.map((c) => [c.positive, c.kind ?? null]),
      [
        [true, 'person'],
        [true, 'organisation'],
        [false, null],
        [false, null],
      ],
    )
  })

  it('fits deterministically and separates what the features separate', () => {
    const examples = Array.from({ length: 40 }, (_, i) => ({ features: [i % 2 ? 'shape=Xx' : 'shape=x', `n=${i % 5}`], label: i % 2 }))
    const a = fitSoftmax(['drop', 'keep'], examples)
    assert.deepEqual(a, fitSoftmax(['drop', 'keep'], examples))
    const model: EntityModel = { keep: a, kind: fitSoftmax(['person', 'product'], examples), threshold: 0.5 }
    assert.equal(judgeCandidate(model, ['shape=Xx']).keep, true)
    assert.equal(judgeCandidate(model, ['shape=x']).keep, false)
    assert.equal(judgeCandidate(model, ['shape=Xx']).kind, 'product')
  })

  it('drops a name the model rejects, and the claims about it; null keeps the rules alone', () => {
    const text = 'Ian Murdock founded Debian in 1993. Debian is a free operating system.'
    const dropAll: EntityModel = { ...shippedEntityModel, threshold: 1.01 }
    const none = extractBuiltin(text, { entities: dropAll, claims: null })
    assert.deepEqual(none, { entities: [], claims: none.claims.filter(() => false) })
    const rules = extractBuiltin(text, null)
    assert.ok(rules.entities.some((e) => e.name === 'Debian'))
    assert.ok(rules.claims.some((c) => c.subject === 'Ian Murdock' && c.object === 'Debian'))
  })
})
