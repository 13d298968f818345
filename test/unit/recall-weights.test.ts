/**
 * Recall's abstention model (docs/memory-graph.md, "Recall that knows when it doesn't know"): the
 * shipped weights are the ones `npm run fit:recall` fits on the evaluation's examples (stale weights
 * fail here), the fit is deterministic and learns which way a feature points, and the answer types
 * a question asks for are read from its form.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { readFixture } from '../../bench/recall-eval/examples.js'
import { type Example, fitModel } from '../../bench/recall-eval/fit-model.js'
import { answerTypeOf, holdsAnswerType } from '../../src/graph/read/answer-type.js'
import { closeness, FEATURES } from '../../src/graph/read/recall-features.js'
import { confidenceOf } from '../../src/graph/read/recall-model.js'
import { RECALL_WEIGHTS } from '../../src/graph/read/recall-weights.js'

describe('recall abstention model', () => {
  it('ships the weights fit on every example of the fixture (else run npm run fit:recall)', () => {
    const examples = readFixture()
    assert.ok(examples.length > 100 && examples.some((e) => e.package === 'nowhere'))
    assert.ok(examples.every((e) => e.x.length === FEATURES.length))
    assert.deepEqual(fitModel(examples), RECALL_WEIGHTS)
  })

  it('fits deterministically, and a feature that separates answered from unanswered gets the weight', () => {
    const examples: Example[] = Array.from({ length: 40 }, (_, i) => ({
      package: `p${i % 4}`,
      answerable: i % 2 === 0,
      hit: i % 2 === 0,
      x: [i % 2 === 0 ? 0.7 + (i % 5) / 20 : 0.2 + (i % 7) / 20, (i * 37) % 11],
    }))
    const model = fitModel(examples)
    assert.deepEqual(fitModel(examples), model)
    assert.ok(model.weights[0] > 1, `the separating feature: ${model.weights}`)
    assert.ok(Math.abs(model.weights[1]) < model.weights[0] / 4, `the noise: ${model.weights}`)
    assert.ok(confidenceOf([0.8, 3], model) >= model.floor && confidenceOf([0.25, 3], model) < model.floor)
  })

  it('reads the kind of answer a question asks for, and finds it in a text', () => {
    assert.equal(answerTypeOf('Who founded Debian?'), 'name')
    assert.equal(answerTypeOf('When was 4.2BSD released?'), 'date')
    assert.equal(answerTypeOf('How many architectures does Debian support?'), 'number')
    assert.equal(answerTypeOf('What is debhelper?'), 'definition')
    assert.equal(answerTypeOf('Can Python be extended in C?'), null)
    assert.ok(holdsAnswerType('Debian was founded by Ian Murdock.', 'name', 'Who founded Debian?'))
    assert.ok(!holdsAnswerType('Debian was founded as a free system.', 'name', 'Who founded Debian?'))
    assert.ok(holdsAnswerType('It was released in June 1983.', 'date', 'When was it released?'))
    assert.ok(!holdsAnswerType('It was released later.', 'date', 'When was it released?'))
    assert.ok(holdsAnswerType('Debian supports nine architectures.', 'number', 'How many?'))
    assert.ok(holdsAnswerType('debhelper is a collection of programs.', 'definition', 'What is debhelper?'))
    assert.ok(!holdsAnswerType('Run debhelper before dpkg.', 'definition', 'What is debhelper?'))
  })

  it('closeness: the question words a text holds over the fewest words spanning one of each', () => {
    assert.equal(closeness([[3], [4], []]), 1)
    assert.equal(
      closeness([
        [1, 20],
        [10, 22],
      ]),
      2 / 3,
      'positions 20 and 22 span three words',
    )
    assert.equal(closeness([[5], []]), 1, 'one word is as close as can be')
    assert.equal(closeness([[1], [11]]), 2 / 11)
  })
})
