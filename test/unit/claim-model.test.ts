/**
 * The learned layer's claim model (docs/memory-graph.md, "A learned layer, scored leaving one
 * package out"): training labels claims by the evaluation's matching, the features say what the
 * sentence did, and the extractor drops a claim the model rejects but keeps claims of a rule the
 * model never judged. The default layer has none (claim-model.ts says why).
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { labeledClaims } from '../../bench/graph-eval/claim-examples.js'
import type { Passage } from '../../bench/graph-eval/schema.js'
import { extractBuiltin, extractFeatured } from '../../src/graph/extract/builtin-extractor.js'
import { type ClaimModel, fitClaimModel, keepsClaim, shippedLayer } from '../../src/graph/extract/learned/claim-model.js'
import { readChunk } from '../../src/graph/extract/learned/entity-candidates.js'
import { shippedEntityModel } from '../../src/graph/extract/learned/entity-model.js'

const passage = (text: string, claims: Passage['claims']): Passage => ({
  id: 'p',
  split: 'tune',
  genre: 'history',
  topics: ['t'],
  source: { package: 'x', version: '1', file: 'f', lines: '1' },
  text,
  entities: [
    { name: 'Ian Murdock', kind: 'person', aliases: [] },
    { name: 'Debian', kind: 'organisation', aliases: [] },
  ],
  claims,
})

const keepNothing = (judged: string[]): ClaimModel => ({ keep: { classes: ['drop', 'keep'], bias: [5, -5], weights: {} }, threshold: 0.5, judged })

describe('the learned claim model', () => {
  it('labels a claim right when it states a labeled claim of its passage, wrong otherwise', () => {
    const p = passage('Ian Murdock founded Debian. Debian is a free operating system.', [
      { subject: 'Ian Murdock', predicates: ['found'], object: 'Debian', objectIsEntity: true },
    ])
    const labeled = labeledClaims(p, readChunk(p.text), shippedEntityModel)
    assert.ok(labeled.length >= 2, 'both sentences give a claim')
    assert.deepEqual(
      labeled.map((x) => [x.right, x.features.includes('predicate=found')]),
      [[true, true], ...labeled.slice(1).map(() => [false, false])],
    )
  })

  it('describes a claim by its predicate, its object and its sentence', () => {
    const { entities, claims } = extractFeatured(
      readChunk('If needed, Debian may not include the kernel. Ian Murdock founded Debian in 1993.'),
      shippedEntityModel,
    )
    const kindOf = (name: string) => entities.find((e) => e.name === name)?.kind
    const [conditional, founding] = claims.map((c) => c.features)
    for (const f of ['source=sentence', 'negated', 'modal=may', 'object=literal', 'sentence-condition', `subject-kind=${kindOf('Debian')}`])
      assert.ok(conditional.includes(f), f)
    for (const f of ['predicate=found', `object-kind=${kindOf('Debian')}`, `subject-kind=${kindOf('Ian Murdock')}`, 'subject-initial', 'dated'])
      assert.ok(founding.includes(f), f)
    assert.ok(!founding.includes('sentence-condition'))
    assert.ok(founding.some((f) => /^subject-keep=0\.\d$/.test(f)))
  })

  it('keeps only sources it judged; fits what the features separate', () => {
    const examples = Array.from({ length: 40 }, (_, i) => ({ features: ['source=sentence', i % 2 ? 'negated' : 'plain', `n=${i % 5}`], right: i % 2 === 0 }))
    const model = fitClaimModel(examples)
    assert.deepEqual(model.judged, ['source=sentence'])
    assert.equal(keepsClaim(model, ['source=sentence', 'plain']), true)
    assert.equal(keepsClaim(model, ['source=sentence', 'negated']), false)
    assert.equal(keepsClaim(model, ['source=codename', 'negated']), true, 'a rule with no training claims is not judged')
  })

  it('is not in the default layer: the extractor keeps every claim about a kept name', () => {
    const text = 'Ian Murdock founded Debian in 1993. Debian follows the Filesystem Hierarchy Standard (FHS).'
    assert.equal(shippedLayer.claims, null)
    assert.deepEqual(extractBuiltin(text), extractBuiltin(text, { entities: shippedEntityModel, claims: null }))
  })

  it('drops the claims the model rejects, keeps the entities; claims null keeps the entity model alone', () => {
    const text = 'Ian Murdock founded Debian in 1993. The stable distribution is currently bookworm.'
    const entitiesOnly = extractBuiltin(text, { entities: shippedEntityModel, claims: null })
    assert.ok(entitiesOnly.claims.some((c) => c.subject === 'Ian Murdock' && c.object === 'Debian'))
    assert.ok(entitiesOnly.claims.some((c) => c.predicate === 'be currently'))
    const dropSentences = extractBuiltin(text, { entities: shippedEntityModel, claims: keepNothing(['source=sentence']) })
    assert.deepEqual(dropSentences.entities, entitiesOnly.entities)
    assert.deepEqual(
      dropSentences.claims,
      entitiesOnly.claims.filter((c) => c.predicate === 'be currently'),
    )
  })
})
