/**
 * The built-in extractor on the sentences that went wrong before it was rebuilt (each one a
 * failure seen on real prose): markup, fragments and phrases as entities, negation and passive
 * voice lost, dates dropped, partial names and acronyms kept apart. No database.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { extractBuiltin } from '../../src/graph/extract/builtin-extractor.js'
import { cleanExtraction } from '../../src/graph/extract/extraction.js'
import { proseBlocks } from '../../src/graph/extract/prose-blocks.js'
import { isSingleValuedForObject, isSingleValuedPredicate, timelineOf } from '../../src/graph/maintain/insights/single-valued.js'

// The rules' names (name-spans.ts); what the learned layer keeps of them is tested in test/unit/entity-model.test.ts.
const names = (text: string) =>
  cleanExtraction(extractBuiltin(text, null))
    .entities.map((e) => e.name)
    .sort()
const claims = (text: string) => extractBuiltin(text).claims.map((c) => `${c.subject} | ${c.predicate} | ${c.object}${c.when ? ` @${c.when}` : ''}`)

describe('built-in extractor', () => {
  it('reads the text of Markdown, never link targets, images, code, headings or navigation', () => {
    const page = [
      '[![Product Site](Common_Content/images//image_left.png)](http://www.debian.org)',
      '',
      '-   [**Prev**](sect.acknowledgments.html)',
      "-   The Debian Administrator's Handbook",
      '-   [**Next**](sect.foundation-documents.html)',
      '',
      '# Chapter 1. The Debian Project',
      '',
      '[1.1. What Is Debian?](the-debian-project.html#sect.what-is-debian)',
      '',
      '**_CULTURE_ Origin of the Debian name**',
      '',
      'See the [Debian Policy](https://www.debian.org/doc/debian-policy/) for details.',
      '',
      '```',
      'Guido van Rossum wrote this code.',
      '```',
    ].join('\n')
    assert.deepEqual(proseBlocks(page), ['See the Debian Policy for details.'])
    assert.deepEqual(names(page), ['Debian Policy'])
  })

  it('folds reStructuredText roles, titles and directives', () => {
    const rst = 'History\n=======\n\n.. note::\n\n   Ignore this.\n\nThe :mod:`json` module was written by `Bob Ippolito <https://example.org>`_.'
    assert.deepEqual(proseBlocks(rst), ['The json module was written by Bob Ippolito.'])
  })

  it('takes proper names only: no sentence openings, quantified phrases, structure words or fused lists', () => {
    const text =
      'Some people joined later. Many work teams exist. Specifically, everybody agreed. See Section 1.5 for details. ' +
      'The project has been led by Ian Murdock, Bruce Perens, and Sam Hartman. Sam stepped down in 2020.'
    assert.deepEqual(names(text), ['Bruce Perens', 'Ian Murdock', 'Sam Hartman'])
  })

  it('folds acronyms and partial names onto the full name, within a chunk', () => {
    const text = 'The Free Software Foundation (FSF) sponsors GNU. Guido van Rossum created Python. The FSF is in Boston. Guido later moved.'
    // "FSF" stays a name of its own only as the subject of "FSF stand for Free Software Foundation", of its
    // expansion's kind, so that resolution's acronym rule merges the two (name-rules.ts).
    assert.deepEqual(names(text), ['Boston', 'FSF', 'Free Software Foundation', 'GNU', 'Guido van Rossum', 'Python'])
  })

  it('keeps negation, turns the passive active, keeps the date and links names', () => {
    assert.deepEqual(claims('Debian is not an acronym.'), ['Debian | not be | acronym'])
    assert.deepEqual(claims('Debian was founded by Ian Murdock in 1993.'), ['Ian Murdock | found | Debian @1993'])
    assert.deepEqual(claims('Stefano Zacchiroli was elected Debian Project Leader.'), ['Stefano Zacchiroli | be elected | Debian Project Leader'])
    assert.deepEqual(claims('In May 2000, Guido van Rossum moved to BeOpen.com.'), ['Guido van Rossum | move to | BeOpen.com @May 2000'])
  })

  it('gives one claim per name of a list, and relations without a verb', () => {
    assert.deepEqual(claims('The Debian Project is a volunteer effort. The project has been led by Ian Murdock, Bruce Perens and Sam Hartman.'), [
      'Debian Project | be | volunteer effort',
      'Ian Murdock | lead | Debian Project',
      'Bruce Perens | lead | Debian Project',
      'Sam Hartman | lead | Debian Project',
    ])
    const text =
      'The project has been led by Ian Murdock, Bruce Perens and Sam Hartman. Python was created at Stichting Mathematisch Centrum in the Netherlands. Acme Labs, a child company of Initech, sells it.'
    const found = claims(text)
    assert.ok(found.includes('Stichting Mathematisch Centrum | in | Netherlands'), found.join('; '))
    assert.ok(found.includes('Acme Labs | be company of | Initech'), found.join('; '))
  })

  it('describes each entity by the sentence that says what it is', () => {
    const [debian] = extractBuiltin('Ian Murdock wrote about it. Debian is a GNU/Linux distribution.').entities.filter((e) => e.name === 'Debian')
    assert.equal(debian.description, 'Debian is a GNU/Linux distribution.')
  })

  it('declares which predicates hold one value at a time', () => {
    assert.equal(isSingleValuedPredicate('be born in'), true)
    assert.equal(isSingleValuedPredicate('not stand for'), true)
    assert.equal(isSingleValuedPredicate('be'), false)
    assert.equal(isSingleValuedPredicate('act as'), false)
    assert.equal(isSingleValuedPredicate('be named after'), false, 'Debian is named after Debra and Ian')
    assert.equal(isSingleValuedForObject('lead'), true, 'an organisation has one leader at a time')
  })

  it('reads values dated apart as a supersession, and values no date separates as a contradiction', () => {
    const leaders = [
      { value: 'bruce perens', when: 'April 1996' },
      { value: 'ian jackson', when: 'January 1998' },
      { value: 'ian murdock', when: 'August 1993' },
    ]
    assert.deepEqual(timelineOf(leaders, 4), { kind: 'supersession', order: ['ian murdock', 'bruce perens', 'ian jackson'] })
    assert.deepEqual(timelineOf([{ value: 'london' }, { value: 'paris' }], 4), { kind: 'contradiction', values: ['london', 'paris'] })
    assert.deepEqual(
      timelineOf(
        [
          { value: 'a', when: 'May 2000' },
          { value: 'b', when: 'May 2000' },
        ],
        4,
      ),
      { kind: 'contradiction', values: ['a', 'b'] },
    )
    assert.deepEqual(
      timelineOf(
        [
          { value: 'x', when: '1993' },
          { value: 'x', when: 'August 1993' },
        ],
        4,
      ),
      { kind: 'none' },
      'one value, dated twice',
    )
    const list = ['a', 'b', 'c', 'd', 'e'].map((value) => ({ value }))
    assert.equal(timelineOf(list, 4).kind, 'none', 'more undated values than AIZK_INSIGHT_MAX_OBJECTS are a list')
  })

  it('reads codename lists and what a name currently is as single-valued claims', () => {
    assert.deepEqual(
      claims('Bruce inspired the different “codenames” for Debian versions (1.1 — Rex, 1.2 — Buzz).').filter((c) => c.includes('| be codename of |')),
      ['Rex | be codename of | Debian 1.1', 'Buzz | be codename of | Debian 1.2'],
    )
    assert.deepEqual(
      claims('* buzz (Debian 1.1) was the spaceman Buzz Lightyear,').filter((c) => c.includes('| be codename of |')),
      ['Buzz | be codename of | Debian 1.1'],
    )
    assert.deepEqual(
      claims('Other codenames used are: buzz for release 1.1, bo for releases 1.3.x.').filter((c) => c.includes('| be codename of |')),
      ['Buzz | be codename of | release 1.1', 'Bo | be codename of | release 1.3'],
    )
    assert.deepEqual(
      claims('POSIX (IEEE 1003.1) is a standard.').filter((c) => c.includes('| be codename of |')),
      [],
      'an upper-case name before a version is no codename',
    )
    assert.deepEqual(
      claims('Currently, stable is a symbolic link to bullseye (i.e. Debian GNU/Linux 11) and testing is a symbolic link to bookworm.').filter((c) =>
        c.includes('| be currently |'),
      ),
      ['stable | be currently | bullseye', 'testing | be currently | bookworm'],
    )
    assert.deepEqual(
      claims('The stable distribution is currently bookworm; The next one will be called trixie.').filter((c) => c.includes('| be currently |')),
      ['stable distribution | be currently | bookworm'],
    )
    assert.deepEqual(
      claims('This means that bullseye is the current stable distribution.').filter((c) => c.includes('| be currently |')),
      ['stable distribution | be currently | bullseye'],
    )
    assert.equal(isSingleValuedPredicate('be currently'), true)
    assert.equal(isSingleValuedPredicate('be codename of'), true)
  })

  it("splits an acronym's possessive from the name it owns, keeps possessive titles whole", () => {
    assert.deepEqual(names("The creation of Debian was sponsored by the FSF's GNU project. Monty Python's Flying Circus is a show."), [
      'Debian',
      'FSF',
      'GNU',
      "Monty Python's Flying Circus",
    ])
  })

  it('reads list items that end in a comma as prose, and never takes a name in parentheses as the subject', () => {
    const text =
      'So far they have been characters taken from the Toy Story movies by Pixar.\n\n* buzz (Debian 1.1) was the spaceman Buzz Lightyear,\n* bo (Debian 1.3) was Bo Peep, the girl who took care of the sheep,'
    assert.ok(names(text).includes('Buzz Lightyear'), names(text).join(', '))
    assert.ok(!claims(text).some((c) => c.startsWith('Debian 1.')), claims(text).join('; '))
  })

  it('drops predicates that lost their verb, objects that name nothing, and dates as objects', () => {
    const out = claims(
      'By this time, Bruce Perens had taken over leadership of the Project from Ian Murdock. Jonathan Carter was elected in April 2020. The FSF is common.',
    )
    assert.ok(!out.some((c) => / \| over \| /.test(c)), out.join('; '))
    assert.ok(!out.some((c) => c.endsWith('| April 2020') || c.includes('| April 2020 @')), out.join('; '))
    assert.ok(!out.some((c) => c.includes('| common')), out.join('; '))
  })
})
