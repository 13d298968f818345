/**
 * Which trigram-similar names dedup may merge: the same words in order, up to an inflection or
 * one slip; never reordered words, another word, or a different version number.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { compatibleNames } from '../../src/graph/resolve/name-compatibility.js'

describe('name compatibility for dedup', () => {
  it('merges inflections and slips, in order', () => {
    for (const [a, b] of [
      ['charles babbage', 'charles babbages'],
      ['guido van rossum', 'guido van rosum'],
      ['raphaël', "raphaël's"],
    ]) {
      assert.equal(compatibleNames(a, b), true, `${a} / ${b}`)
    }
  })
  it('keeps apart what trigrams alone merged', () => {
    for (const [a, b] of [
      ['document foundation', 'foundation documents'],
      ['oldstable', 'oldoldstable'],
      ['python 3.10', 'python 3.11'],
      ['debian', 'debian project'],
    ]) {
      assert.equal(compatibleNames(a, b), false, `${a} / ${b}`)
    }
  })
})
