/** Error text a worker stores is text jsonb accepts: checked against a real jsonb cast elsewhere (test/worker/outcome-faults.test.ts); here its rules. */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { storableJson, storableText } from '../../src/queue/storable-json.js'

describe('storable text', () => {
  it('escapes NUL, replaces a lone surrogate, keeps pairs', () => {
    assert.equal(storableText('abc\0def'), 'abc\\0def')
    assert.equal(storableText('x\ud800y'), 'x\ufffdy')
    assert.equal(storableText('x\udc00'), 'x\ufffd')
    assert.equal(storableText('ok \ud83d\ude00'), 'ok \ud83d\ude00')
  })

  it('cuts a long string with a note, never inside a surrogate pair', () => {
    assert.equal(storableText('a'.repeat(20), 10), `${'a'.repeat(10)}… (10 more characters)`)
    const cut = storableText(`${'a'.repeat(9)}\ud83d\ude00bbb`, 10)
    assert.equal(cut, `${'a'.repeat(9)}… (5 more characters)`)
  })

  it('makes every string of a value storable, keys included', () => {
    const json = storableJson({ 'k\0': ['v\0', { deep: '\ud800' }], n: 1, none: null })
    assert.ok(!json.includes('\\u0000') && !/\\ud[89ab]/i.test(json), json)
    assert.deepEqual(JSON.parse(json), { 'k\\0': ['v\\0', { deep: '\ufffd' }], n: 1, none: null })
  })
})
