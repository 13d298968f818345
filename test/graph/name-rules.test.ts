/** The resolver's name rules and the name a merged group keeps, on names from the Debian corpus. */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { trigrams } from '../../bench/graph-eval/resolution.js'
import { normalizeName } from '../../src/graph/extract/normalize.js'
import { betterName } from '../../src/graph/resolve/better-name.js'
import { findMerges } from '../../src/graph/resolve/find-merges.js'
import { matchRule } from '../../src/graph/resolve/name-rules.js'

const rule = (a: string, b: string, kind: string) => matchRule(normalizeName(a), normalizeName(b), kind)?.rule ?? null

async function merged(names: [string, string][]): Promise<string[]> {
  const entities = names.map(([name, kind], i) => ({ id: String(i), name: normalizeName(name), kind, trigrams: trigrams(normalizeName(name)) }))
  const pairs = await findMerges(entities, { similarity: 0.8 })
  return pairs.map((p) => `${names[Number(p.a)][0]} = ${names[Number(p.b)][0]} (${p.rule})`).sort()
}

describe('name rules', () => {
  it('matches acronyms, designators and partial names', () => {
    assert.equal(rule('DPL', 'Debian Project Leader', 'concept'), 'acronym')
    assert.equal(rule('CNRI', 'Corporation for National Research Initiatives', 'organisation'), 'acronym')
    assert.equal(rule('GNU GPL', 'GNU General Public License', 'concept'), 'acronym')
    assert.equal(rule('Debian project', 'Debian', 'product'), 'designator')
    assert.equal(rule('Dr. Richard M. Stallman', 'Richard Stallman', 'person'), 'designator')
    assert.equal(rule('Akkerman', 'Wichert Akkerman', 'person'), 'partial-name')
    assert.equal(rule('Raphaël', 'Raphaël Hertzog', 'person'), 'partial-name')
  })

  it('never matches look-alikes', () => {
    assert.equal(rule('Document Foundation', 'Foundation Documents', 'organisation'), null)
    assert.equal(rule('Oldstable', 'Oldoldstable', 'product'), null)
    assert.equal(rule('Debian', 'Debian Project Leader', 'concept'), null)
    assert.equal(rule('Reston', 'Reston, Virginia', 'place'), null)
  })

  it('within a set: a partial name or acronym that fits two names merges with neither; a tail of two words or more needs a head that is a name', async () => {
    assert.deepEqual(
      await merged([
        ['Sam', 'person'],
        ['Sam Hartman', 'person'],
        ['Sam Hocevar', 'person'],
      ]),
      [],
    )
    assert.deepEqual(
      await merged([
        ['Akkerman', 'person'],
        ['Wichert Akkerman', 'person'],
        ['Sam Hartman', 'person'],
      ]),
      ['Akkerman = Wichert Akkerman (partial-name)'],
    )
    assert.deepEqual(
      await merged([
        ['Python', 'product'],
        ["Monty Python's Flying Circus", 'product'],
        ['Monty Python', 'product'],
      ]),
      [],
    )
    assert.deepEqual(
      await merged([
        ['Technical Committee', 'organisation'],
        ['Debian Technical Committee', 'organisation'],
        ['Debian', 'organisation'],
      ]),
      ['Technical Committee = Debian Technical Committee (partial-name)'],
    )
    assert.deepEqual(
      await merged([
        ['Document Foundation', 'organisation'],
        ['Foundation Documents', 'organisation'],
        ['Oldstable', 'product'],
        ['Oldoldstable', 'product'],
      ]),
      [],
    )
  })

  it('keeps the better name', () => {
    assert.equal(
      betterName([
        { name: "Raphaël's", mentions: 9, kind: 'person' },
        { name: 'Raphaël Hertzog', mentions: 1, kind: 'person' },
        { name: 'Hertzog', mentions: 3, kind: 'person' },
      ]),
      'Raphaël Hertzog',
    )
    assert.equal(
      betterName([
        { name: 'DPL', mentions: 20, kind: 'concept' },
        { name: 'Debian Project Leader', mentions: 2, kind: 'concept' },
      ]),
      'Debian Project Leader',
    )
    assert.equal(
      betterName([
        { name: 'Debian project', mentions: 1, kind: 'product' },
        { name: 'Debian', mentions: 1, kind: 'product' },
      ]),
      'Debian',
    )
    assert.equal(
      betterName([
        { name: 'Richard Stallman', mentions: 5, kind: 'person' },
        { name: 'Richard M. Stallman', mentions: 1, kind: 'person' },
        { name: 'Dr. Richard M. Stallman', mentions: 1, kind: 'person' },
      ]),
      'Richard M. Stallman',
    )
  })
})
