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
import { definesAcronym, twoLetterAcronyms } from '../../src/graph/resolve/acronym-definitions.js'
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
        { name: 'Linux', mentions: 24, kind: 'concept' },
        { name: 'Loading Linux', mentions: 1, kind: 'concept' },
      ]),
      'Linux',
    )
    assert.equal(
      betterName([
        { name: 'Free Software', mentions: 12, kind: 'concept' },
        { name: 'FS', mentions: 2, kind: 'concept' },
      ]),
      'Free Software',
    )
    assert.equal(
      betterName([
        { name: 'PC', mentions: 9, kind: 'concept' },
        { name: 'Places->CD/DVD Creator', mentions: 1, kind: 'concept' },
      ]),
      'PC',
    )
    // A fuller form and an expansion are the entity's own.
    assert.equal(
      betterName([
        { name: "Raphaël's", mentions: 9, kind: 'person' },
        { name: 'Raphaël Hertzog', mentions: 1, kind: 'person' },
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
  })
})

describe('a shorter name folds into a longer one only where names work that way', () => {
  const pairs = async (kind: string, a: string, b: string) =>
    merged([
      [a, kind],
      [b, kind],
    ])

  it('merges a person’s first or last name, a designator, an acronym whose initials spell it, a phrase after its owner, a codename after its version', async () => {
    assert.deepEqual(await pairs('person', 'Raphaël', 'Raphaël Hertzog'), ['Raphaël = Raphaël Hertzog (partial-name)'])
    assert.deepEqual(await pairs('person', 'Hertzog', 'Raphaël Hertzog'), ['Hertzog = Raphaël Hertzog (partial-name)'])
    assert.deepEqual(await pairs('organisation', 'Debian', 'Debian Project'), ['Debian = Debian Project (designator)'])
    assert.deepEqual(await pairs('concept', 'DFSG', 'Debian Free Software Guidelines'), ['DFSG = Debian Free Software Guidelines (acronym)'])
    assert.deepEqual(await pairs('organisation', 'SPI', 'Software in the Public Interest'), ['SPI = Software in the Public Interest (acronym)'])
    assert.deepEqual(
      await merged([
        ['Debian', 'organisation'],
        ['Technical Committee', 'organisation'],
        ['Debian Technical Committee', 'organisation'],
      ]),
      ['Technical Committee = Debian Technical Committee (partial-name)'],
    )
    assert.deepEqual(
      await merged([
        ['Debian 9', 'product'],
        ['Stretch', 'product'],
        ['Debian 9 Stretch', 'product'],
      ]),
      ['Stretch = Debian 9 Stretch (partial-name)'],
    )
  })

  it('never folds a one-word name into a name that qualifies it, nor an acronym into words whose initials do not spell it', async () => {
    const set = (kind: string, names: string[]) => merged(names.map((n) => [n, kind]))
    // The heads are names of the set, as in the Debian handbook: still another thing.
    assert.deepEqual(await set('product', ['Linux', 'SUSE', 'SUSE Linux', 'Debian', 'Debian GNU/Linux', 'GNU/Linux', 'Debian GNU Linux']), [])
    assert.deepEqual(await set('concept', ['Linux', 'SUSE', 'SUSE Linux', 'GNU', 'GNU Readline', 'Readline']), [])
    assert.deepEqual(await set('concept', ['Shell', 'Secure Shell', 'OpenSSH']), [])
    // Two letters fit too many names; "OS X" is not an acronym; initials must cover every significant word, in order.
    assert.deepEqual(await set('concept', ['FS', 'Free Software', 'OS X', 'OS', 'Open Source', 'PC', 'Personal Computer']), [])
    assert.deepEqual(await set('concept', ['DFS', 'Debian Free Software Guidelines', 'FSD', 'Free Software Definition Debian']), [])
    assert.deepEqual(await set('organisation', ['SFC', 'Free Software Conservancy']), [])
  })

  it('shows a name the most mentioned member has, never a qualified or unrelated one', () => {
    const shown = (kind: string, ...names: [string, number][]) => betterName(names.map(([name, mentions]) => ({ name, mentions, kind })))
    assert.equal(shown('product', ['Linux', 24], ['SUSE Linux', 1]), 'Linux')
    assert.equal(shown('product', ['GNU/Linux', 10], ['Debian GNU/Linux', 3]), 'GNU/Linux')
    assert.equal(shown('concept', ['Shell', 8], ['Secure Shell', 1]), 'Shell')
    assert.equal(shown('organisation', ['Technical Committee', 5], ['Debian Technical Committee', 1]), 'Debian Technical Committee')
    assert.equal(shown('product', ['Stretch', 7], ['Debian 9 Stretch', 1]), 'Debian 9 Stretch')
    assert.equal(shown('organisation', ['Debian Project', 6], ['Debian', 2]), 'Debian')
    assert.equal(shown('person', ['Raphaël', 6], ['Raphaël Hertzog', 1]), 'Raphaël Hertzog')
    // Not a person: a word added before a one-word name qualifies it.
    assert.equal(shown('concept', ['Hertzog', 6], ['Raphaël Hertzog', 1]), 'Hertzog')
  })
})

describe('two-letter acronyms', () => {
  it('are candidates only where the letters spell a two-word name of their kind, and merge only where a text defines them', async () => {
    const entities = [
      ['fs', 'concept'],
      ['free software', 'concept'],
      ['free software foundation', 'concept'],
      ['sf', 'organisation'],
      ['pc', 'concept'],
      ['places creator', 'product'],
      ['os x', 'concept'],
      ['open source', 'concept'],
      ['software freedom', 'concept'],
    ].map(([name, kind], i) => ({ id: String(i), name, kind, trigrams: trigrams(name) }))
    assert.deepEqual(twoLetterAcronyms(entities), [['0', '1']])
    assert.ok(definesAcronym('The Free\n Software (FS) movement', 'fs', 'free software'))
    assert.ok(definesAcronym('FS (free software)', 'fs', 'free software'))
    assert.ok(!definesAcronym('Free Software, or FS, is', 'fs', 'free software'))
    const withText = (text: string) =>
      findMerges(entities, {
        similarity: 0.8,
        definitions: async (pairs) => pairs.filter(([a, b]) => definesAcronym(text, entities[Number(a)].name, entities[Number(b)].name)),
      })
    assert.deepEqual(
      (await withText('Free Software (FS) and open source (OS X)')).map((p) => `${p.a}-${p.b}:${p.rule}`),
      ['0-1:acronym'],
    )
    assert.deepEqual(await withText('Free Software and FS'), [])
    assert.deepEqual(await findMerges(entities, { similarity: 0.8 }), [], 'no text, no two-letter acronym')
  })
})
