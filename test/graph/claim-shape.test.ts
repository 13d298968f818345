/**
 * Claims that keep their meaning (issue 48, claim-shape): acronyms and their expansions as
 * single-valued "stand for" facts, subjects set off by an apposition or a relative clause, no
 * claim from a condition or a question, a past perfect kept past, and literal objects taken
 * whole through lists and complements or cut back to what is whole. Sentences written for the
 * rules, from English grammar. No database.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { acronymClaims } from '../../src/graph/extract/acronym-claims.js'
import { extractBuiltin } from '../../src/graph/extract/builtin-extractor.js'
import { cleanExtraction } from '../../src/graph/extract/extraction.js'
import { claimSentence } from '../../src/graph/maintain/claim-sentence.js'
import { isSingleValuedPredicate, timelineOf } from '../../src/graph/maintain/insights/single-valued.js'

// The rules alone: the learned layer (learned/entity-model.ts) may drop a name these sentences make up.
const claims = (text: string) => extractBuiltin(text, null).claims.map((c) => `${c.subject} | ${c.predicate} | ${c.object}`)
const expansions = (text: string) => acronymClaims(text).map((c) => `${c.subject} = ${c.object}`)

describe('acronym expansions', () => {
  it('reads an acronym after its expansion or before it, when the words spell it', () => {
    assert.deepEqual(expansions('Debian follows the Filesystem Hierarchy Standard (FHS) closely.'), ['FHS = Filesystem Hierarchy Standard'])
    assert.deepEqual(expansions('Debian follows the FHS (Filesystem Hierarchy Standard) closely.'), ['FHS = Filesystem Hierarchy Standard'])
    assert.deepEqual(expansions('Ask on the Open and free technology community (OFTC) network.'), ['OFTC = Open and free technology community'])
    assert.deepEqual(expansions("Ask the Debian Project Leader's (DPL) delegates."), ['DPL = Debian Project Leader'])
  })

  it('takes no gloss in parentheses for an expansion', () => {
    assert.deepEqual(expansions('Debian (the universal operating system) is free. It runs on AMD64 (64-bit PC) machines.'), [])
    assert.deepEqual(expansions('The kernel of the operating system (GNU) is Linux.'), [])
    assert.deepEqual(expansions('Use the GnuPG tool (GPG) to sign.'), [])
  })

  it('reads an expansion said in words', () => {
    assert.deepEqual(expansions('DFSG stands for Debian Free Software Guidelines.'), ['DFSG = Debian Free Software Guidelines'])
    assert.deepEqual(expansions('The name “Bash” is an acronym for ‘Bourne-Again SHell’, a pun.'), ['Bash = Bourne-Again SHell'])
    assert.deepEqual(expansions('APT, short for Advanced Package Tool, installs packages.'), ['APT = Advanced Package Tool'])
    assert.deepEqual(expansions('Apt stands for a tool that does things.'), [])
  })

  it('gives a single-valued claim, so two expansions of one acronym are a contradiction', () => {
    const one = cleanExtraction(extractBuiltin('Debian follows the Filesystem Hierarchy Standard (FHS).'))
    const two = cleanExtraction(extractBuiltin('Debian follows the Filesystem Hierarchy Specification (FHS).'))
    const values = [...one.claims, ...two.claims].filter((c) => c.subject === 'fhs' && isSingleValuedPredicate(c.predicate))
    assert.deepEqual(
      values.map((c) => [c.predicate, c.object, c.objectIsEntity]),
      [
        ['stand for', 'Filesystem Hierarchy Standard', false],
        ['stand for', 'Filesystem Hierarchy Specification', false],
      ],
    )
    assert.equal(
      timelineOf(
        values.map((c) => ({ value: c.object })),
        4,
      ).kind,
      'contradiction',
    )
  })

  it('gives the acronym the kind of its expansion', () => {
    const { entities } = cleanExtraction(extractBuiltin('The Free Software Foundation (FSF) was founded by Richard Stallman.'))
    assert.equal(entities.find((e) => e.name === 'FSF')?.kind, 'organisation')
  })
})

describe('subjects and clauses', () => {
  it('finds the subject before an apposition, a parenthesis or a relative clause', () => {
    assert.ok(claims('Git, unlike Subversion, stores snapshots.').includes('Git | store | snapshots'))
    assert.ok(claims('The Free Software Foundation (FSF) was founded by Richard Stallman.').includes('Richard Stallman | found | Free Software Foundation'))
    const relative = claims('Lintian, which checks packages, is a tool written in Perl.')
    assert.ok(relative.includes('Lintian | check | packages'), relative.join('; '))
    assert.ok(relative.includes('Lintian | be | tool'), relative.join('; '))
  })

  it('reads "the POSTGRES project" as POSTGRES, but not "a Debian distribution"', () => {
    assert.deepEqual(claims('The POSTGRES project was led by Michael Stonebraker.'), ['Michael Stonebraker | lead | POSTGRES'])
    assert.deepEqual(claims('The POSTGRES project, led by Professor Michael Stonebraker, was sponsored by DARPA.'), [
      'Professor Michael Stonebraker | lead | POSTGRES',
    ])
    assert.deepEqual(claims('A GNU/Linux distribution has two main objectives.'), [])
  })

  it('reads a description set off by commas after a name, whole, and not an item of a list', () => {
    assert.deepEqual(claims('Lintian, a static analysis tool, checks packages.'), ['Lintian | check | packages', 'Lintian | be | static analysis tool'])
    assert.deepEqual(claims('Ian Murdock, the founder of the project, died in 2015.'), ['Ian Murdock | be | founder of the project'])
    assert.deepEqual(claims('Debian, the kernel, and the tools are free.'), [])
    assert.deepEqual(claims('Lintian, the tool that checks packages, is written in Perl.'), [])
  })

  it('states nothing from a condition or a question', () => {
    assert.deepEqual(claims('If Debian is installed, Python must not contain the old modules.'), ['Python | not must contain | old modules'])
    assert.deepEqual(claims('Unless Debian ships Python, Perl runs the scripts.'), ['Perl | run | scripts'])
    assert.deepEqual(claims('Does Debian support the ARM architecture?'), [])
  })

  it('reads "no longer" as a negation, and states nothing hedged or denied by "neither ... nor"', () => {
    assert.deepEqual(claims('Debian no longer supports the i386 architecture.'), ['Debian | not support | i386 architecture'])
    assert.deepEqual(claims('Debian is no longer a small project.'), ['Debian | not be | small project'])
    assert.deepEqual(claims('Debian rarely ships proprietary drivers. Debian hardly supports the Alpha architecture.'), [])
    assert.deepEqual(claims('Neither Debian nor Ubuntu ships the driver.'), [])
  })

  it('keeps a past perfect in the past', () => {
    assert.deepEqual(claims('Debian had been the only distribution with a social contract.'), ['Debian | was | distribution with a social contract'])
  })

  it('keeps "used to" as a past habit and "is used to" as what a thing serves for', () => {
    assert.deepEqual(claims('Debian used to ship the dselect tool.'), ['Debian | used to ship | dselect tool'])
    assert.deepEqual(claims('Debian used the dselect tool.'), ['Debian | use | dselect tool'])
    assert.deepEqual(claims('Python is used to write scripts.'), ['Python | be used to write | scripts'])
    assert.deepEqual(claims('Python cannot be used to write drivers.'), ['Python | not can be used to write | drivers'])
    assert.equal(claimSentence('Debian', 'used to ship', 'dselect tool'), 'Debian used to ship dselect tool.')
    assert.equal(claimSentence('Python', 'be used to write', 'scripts'), 'Python is used to write scripts.')
    assert.equal(claimSentence('Python', 'not can be used to write', 'drivers'), 'Python cannot be used to write drivers.')
  })

  it("reads a word in -s between a name and a determiner as the name's verb", () => {
    assert.deepEqual(claims('The Policy Manual describes the structure and contents of the Debian archive.'), [
      'Policy Manual | describe | structure and contents of the Debian archive',
    ])
  })
})

describe('literal objects', () => {
  it('takes a complement whose noun compromise reads as a verb', () => {
    assert.deepEqual(claims('Git tracks changes to files.'), ['Git | track | changes to files'])
    assert.deepEqual(claims('Lintian reports errors in packages that are uploaded.'), ['Lintian | report | errors in packages'])
  })

  it('drops an object that ends in an adjective, and a participle that opens a clause after the noun', () => {
    assert.deepEqual(claims('Python 3.11 is between 10-60% faster than Python 3.10.'), [])
    assert.deepEqual(claims('GNU is a range of free software developed by volunteers.'), ['GNU | be | range of free software'])
  })

  it('takes a list whole, or only its first item when the list is cut', () => {
    assert.deepEqual(claims('Debian provides packages, documentation and good manuals for users.'), [
      'Debian | provide | packages, documentation and good manuals for users',
    ])
    assert.deepEqual(claims('Debian provides packages, documentation and support.'), ['Debian | provide | packages'])
    assert.deepEqual(claims('Debian provides packages and Ubuntu uses them.'), ['Debian | provide | packages'])
  })
})
