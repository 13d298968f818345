/**
 * The pure parts of time on every fact and of readable profiles and communities: dates read as
 * periods (the same reading as the database's aizk_time_bound), the time phrases of a sentence
 * given to the claim they belong to, a dated claim stated in the past, what an entity is from its
 * description sentence, and a community's title and summary from the relation its claims share.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { extractBuiltin } from '../../src/graph/extract/builtin-extractor.js'
import { claimTimes, timePhrases } from '../../src/graph/extract/claim-times.js'
import { sentencesOf } from '../../src/graph/extract/sentence-terms.js'
import { claimSentence } from '../../src/graph/maintain/claim-sentence.js'
import { communityText } from '../../src/graph/maintain/communities/community-text.js'
import { extractiveSummary } from '../../src/graph/maintain/profiles.js'
import { whatItIs } from '../../src/graph/maintain/what-it-is.js'
import { asOfSpan, timeSpan } from '../../src/graph/time-span.js'

describe('dates as periods', () => {
  it('reads years, months, days and decades as their first day and the day after', () => {
    assert.deepEqual(timeSpan('1996'), { start: '1996-01-01', end: '1997-01-01' })
    assert.deepEqual(timeSpan('December 1997'), { start: '1997-12-01', end: '1998-01-01' })
    assert.deepEqual(timeSpan('June 17th, 1996'), { start: '1996-06-17', end: '1996-06-18' })
    assert.deepEqual(timeSpan('17 June 1996'), { start: '1996-06-17', end: '1996-06-18' })
    assert.deepEqual(timeSpan('August of 1993'), { start: '1993-08-01', end: '1993-09-01' })
    assert.deepEqual(timeSpan('1990s'), { start: '1990-01-01', end: '2000-01-01' })
    assert.deepEqual(timeSpan('2001-04-15'), { start: '2001-04-15', end: '2001-04-16' })
    assert.deepEqual(timeSpan('Feb 30 2001'), { start: '2001-02-01', end: '2001-03-01' }, 'a day the month lacks is dropped')
    assert.equal(timeSpan('someday'), undefined)
  })

  it('--as-of takes a period or a moment, and nothing else', () => {
    assert.deepEqual(asOfSpan('1997'), { start: '1997-01-01', end: '1998-01-01' })
    assert.deepEqual(asOfSpan('2001-04'), { start: '2001-04-01', end: '2001-05-01' })
    assert.deepEqual(asOfSpan('April 2001'), { start: '2001-04-01', end: '2001-05-01' })
    assert.deepEqual(asOfSpan('2010-06-01'), { start: '2010-06-01', end: '2010-06-02' })
    assert.deepEqual(asOfSpan('2010-06-01T23:30:00-02:00'), { start: '2010-06-02', end: '2010-06-03' }, 'the UTC day of the moment')
    for (const bad of ['yesterday-ish', '2001-13', '2001-02-30', '', 'April']) assert.equal(asOfSpan(bad), undefined, bad)
  })
})

describe('time phrases', () => {
  const times = (text: string) => extractBuiltin(text).claims.map((c) => [c.subject, c.predicate, c.object, c.when ?? null, c.until ?? null])

  it('keeps both ends of "from ... until ..." (debian-history\'s leaders)', () => {
    assert.deepEqual(times('Bruce Perens led Debian from April 1996 until December 1997.'), [['Bruce Perens', 'lead', 'Debian', 'April 1996', 'December 1997']])
  })

  it('gives each phrase to the verb before it, even a verb that gave no claim', () => {
    // "led it" has a pronoun object and gives no claim; its end is not the founding's.
    assert.deepEqual(times('Ian Murdock founded Debian in August 1993 and led it until March 1996.'), [['Ian Murdock', 'found', 'Debian', 'August 1993', null]])
  })

  it('reads since, between ... and ..., a year range and a leading phrase', () => {
    const s = (text: string) => sentencesOf(text)[0]
    assert.deepEqual(
      timePhrases(s('Debian has used Git since 2005.')).map(({ when, until }) => [when, until]),
      [['2005', undefined]],
    )
    assert.deepEqual(
      timePhrases(s('Debian shipped Perl between 1998 and 2001.')).map(({ when, until }) => [when, until]),
      [['1998', '2001']],
    )
    assert.deepEqual(
      timePhrases(s('Debian was free from 1996-1998.')).map(({ when, until }) => [when, until]),
      [['1996', '1998']],
    )
    const lead = s('Since 2005, Debian has used Git.')
    assert.deepEqual(claimTimes(lead, [{ subjectAt: 3, predicate: 'use' }]), [{ when: '2005' }])
  })

  it('leaves a sentence without a phrase as it was', () => {
    assert.deepEqual(claimTimes(sentencesOf('Debian uses Git.')[0], [{ subjectAt: 0, predicate: 'use' }]), [undefined])
  })
})

describe('readable profiles and communities', () => {
  it('a dated claim reads in the past with its dates; negation stays', () => {
    assert.equal(
      claimSentence('Bruce Perens', 'lead', 'Debian', { from: 'April 1996', until: 'December 1997' }),
      'Bruce Perens led Debian from April 1996 until December 1997.',
    )
    assert.equal(claimSentence('Ian Murdock', 'found', 'Debian', { from: 'August 1993' }), 'Ian Murdock founded Debian in August 1993.')
    assert.equal(claimSentence('Qt', 'not be', 'free software', { until: '2000' }), 'Qt was not free software until 2000.')
    assert.equal(claimSentence('Debian', 'not support', 'comments', { from: '1999' }), 'Debian did not support comments in 1999.')
    assert.equal(claimSentence('Debian', 'not support', 'comments'), 'Debian does not support comments.')
  })

  it('what an entity is, from its description sentence, in its own tense and polarity', () => {
    assert.deepEqual(whatItIs('Qt', 'At the time, Qt was not free software; KDE used it.'), { text: 'Qt was not free software.', quoted: false })
    assert.deepEqual(whatItIs('Bdale Garbee', 'Bdale Garbee, a long-time Debian developer, was elected in 2002.'), {
      text: 'Bdale Garbee is a long-time Debian developer.',
      quoted: false,
    })
    assert.deepEqual(whatItIs('Netfilter', 'Run the firewall with Netfilter.'), { text: '“Run the firewall with Netfilter.”', quoted: true })
    assert.equal(whatItIs('Netfilter', null), undefined)
  })

  it('a profile leads with what the entity is when no claim says it, and says nothing is claimed only when nothing is known', () => {
    const e = { name: 'Qt', kind: 'product', mentions: 3, description: 'Qt was not free software at the time.' }
    assert.equal(extractiveSummary(e, []), 'Qt was not free software at the time. Mentioned 3 times.')
    assert.equal(extractiveSummary({ ...e, description: 'KDE is built with Qt.' }, []), 'Qt (product): “KDE is built with Qt.” Mentioned 3 times.')
    assert.equal(extractiveSummary({ ...e, description: null }, []), 'Qt (product) is mentioned 3 times; nothing is claimed about it yet.')
  })

  it('a community is titled by the relation most of its strongest claims share', () => {
    const led = (s: string, from: string, until: string) => ({ subject: s, predicate: 'lead', object: 'Debian', validFrom: from, validTo: until })
    const { title, summary } = communityText(['Debian', 'Bruce Perens', 'Ian Jackson'], 4, [
      led('Bruce Perens', 'April 1996', 'December 1997'),
      led('Ian Jackson', 'January 1998', 'December 1998'),
      { subject: 'Ian Murdock', predicate: 'found', object: 'Debian', validFrom: 'August 1993' },
    ])
    assert.equal(title, 'Who led Debian')
    assert.equal(
      summary,
      '4 entities around Debian, Bruce Perens and Ian Jackson. Bruce Perens and Ian Jackson led Debian between April 1996 and December 1998. Ian Murdock founded Debian in August 1993.',
    )
    const guido = communityText(['Guido van Rossum'], 3, [
      { subject: 'Guido van Rossum', predicate: 'join', object: 'Google' },
      { subject: 'Guido van Rossum', predicate: 'join', object: 'Dropbox' },
    ])
    assert.equal(guido.title, 'What Guido van Rossum joins')
    assert.equal(communityText(['A', 'B', 'C'], 3, [{ subject: 'A', predicate: 'know', object: 'B' }]).title, 'A, B and C', 'no shared relation: the members')
  })
})
