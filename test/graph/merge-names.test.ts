/**
 * Merges issue 48 saw rename things on an unseen manual: Linux shown as "Loading Linux", PC as
 * "Places->CD/DVD Creator", CD as "Ctrl D", Free Software as "FS", Shell merged into Secure
 * Shell, OS X into Open Source. A merge never gives an entity a name that is not one of its own
 * forms (docs/memory-graph.md, "Resolution"). No database.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { trigrams } from '../../bench/graph-eval/resolution.js'
import { normalizeName } from '../../src/graph/extract/normalize.js'
import { betterName } from '../../src/graph/resolve/better-name.js'
import { findMerges } from '../../src/graph/resolve/find-merges.js'

async function merged(names: [string, string][]): Promise<string[]> {
  const entities = names.map(([name, kind], i) => ({ id: String(i), name: normalizeName(name), kind, trigrams: trigrams(normalizeName(name)) }))
  const pairs = await findMerges(entities, { similarity: 0.8 })
  return pairs.map((p) => `${names[Number(p.a)][0]} = ${names[Number(p.b)][0]} (${p.rule})`).sort()
}

describe('merges that would rename things', () => {
  it('merges none of the pairs seen wrong', async () => {
    const names: [string, string][] = [
      ['Linux', 'concept'],
      ['Loading', 'concept'],
      ['Loading Linux', 'concept'],
      ['PC', 'concept'],
      ['Places->CD/DVD Creator', 'concept'],
      ['CD', 'concept'],
      ['Ctrl D', 'concept'],
      ['FS', 'concept'],
      ['Free Software', 'concept'],
      ['Shell', 'concept'],
      ['Secure', 'concept'],
      ['Secure Shell', 'concept'],
      ['OS X', 'concept'],
      ['OS', 'concept'],
      ['Open Source', 'concept'],
    ]
    assert.deepEqual(await merged(names), [])
  })

  it('still merges what the rules are for', async () => {
    const names: [string, string][] = [
      ['DPL', 'concept'],
      ['Debian Project Leader', 'concept'],
      ['RMS', 'person'],
      ['Richard M. Stallman', 'person'],
      ['Debian', 'product'],
      ['Debian LTS team', 'organisation'],
      ['LTS team', 'organisation'],
    ]
    assert.deepEqual(await merged(names), [
      'DPL = Debian Project Leader (acronym)',
      'LTS team = Debian LTS team (partial-name)',
      'RMS = Richard M. Stallman (acronym)',
    ])
  })

  it('shows one of the most mentioned member’s own forms', () => {
    assert.equal(
      betterName([
        { name: 'Linux', mentions: 24 },
        { name: 'Loading Linux', mentions: 1 },
      ]),
      'Linux',
    )
    assert.equal(
      betterName([
        { name: 'Free Software', mentions: 12 },
        { name: 'FS', mentions: 2 },
      ]),
      'Free Software',
    )
    assert.equal(
      betterName([
        { name: 'PC', mentions: 9 },
        { name: 'Places->CD/DVD Creator', mentions: 1 },
      ]),
      'PC',
    )
    // A fuller form and an expansion are the entity's own.
    assert.equal(
      betterName([
        { name: "Raphaël's", mentions: 9 },
        { name: 'Raphaël Hertzog', mentions: 1 },
      ]),
      'Raphaël Hertzog',
    )
    assert.equal(
      betterName([
        { name: 'DPL', mentions: 20 },
        { name: 'Debian Project Leader', mentions: 2 },
      ]),
      'Debian Project Leader',
    )
  })
})
