/**
 * The evaluation's matching rules (docs/memory-graph.md, "The evaluation"), on a made-up
 * passage: a duplicate name counts wrong, an optional one neither way, a claim matches by
 * subject, predicate word without its ending, negation and object; single-valued facts by kind.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Passage } from '../../bench/graph-eval/labels.js'
import { scoreFunctional, scorePassage, zeroCounts } from '../../bench/graph-eval/score.js'

const passage: Passage = {
  id: 'p',
  split: 'tune',
  genre: 'history',
  topics: ['t'],
  source: { package: 'x', version: '1', file: 'f', lines: '1-2' },
  text: '',
  entities: [
    { name: 'Ian Murdock', kind: 'person', aliases: ['Ian'] },
    { name: 'Debian', kind: 'product', aliases: [], refs: ['project'] },
    { name: 'dpkg', kind: 'optional', aliases: [] },
  ],
  claims: [
    { subject: 'Ian Murdock', predicates: ['found', 'create'], object: 'Debian', objectIsEntity: true },
    { subject: 'Debian', predicates: ['be'], object: 'acronym', objectIsEntity: false, negated: true },
  ],
}

const entity = (name: string) => ({ name, normalizedName: name.toLowerCase(), kind: 'concept', mentions: 1 })

describe('graph evaluation scoring', () => {
  it('counts a second name of one entity as wrong and an optional name neither way', () => {
    const counts = zeroCounts()
    scorePassage(passage, { entities: [entity('Ian Murdock'), entity('Ian'), entity('dpkg'), entity('Look')], claims: [] }, counts)
    assert.deepEqual([counts.entitiesRight, counts.entitiesOut, counts.entitiesFound, counts.entitiesLabeled], [1, 3, 1, 2])
  })

  it('matches claims by subject, inflected predicate, negation and object, through references', () => {
    const counts = zeroCounts()
    const claims = [
      { subject: 'ian', predicate: 'founded', object: 'project', objectIsEntity: true },
      { subject: 'debian', predicate: 'not be', object: 'an acronym', objectIsEntity: false },
      { subject: 'debian', predicate: 'be', object: 'acronym', objectIsEntity: false },
      { subject: 'debian', predicate: 'not be', object: 'Ian Murdock', objectIsEntity: true },
    ]
    scorePassage(passage, { entities: [], claims }, counts)
    assert.deepEqual([counts.claimsRight, counts.claimsOut, counts.claimsFound, counts.claimsLinking], [2, 4, 2, 2])
  })

  it('counts an acronym said to stand for a name the labels give its entity as right, for precision only', () => {
    const labeled: Passage = { ...passage, entities: [...passage.entities, { name: 'Free Software Foundation', kind: 'organisation', aliases: ['FSF'] }] }
    const counts = zeroCounts()
    const claims = [
      { subject: 'FSF', predicate: 'stand for', object: 'Free Software Foundation', objectIsEntity: false },
      { subject: 'FSF', predicate: 'stand for', object: 'Free Software Federation', objectIsEntity: false },
      { subject: 'FSF', predicate: 'be', object: 'Free Software Foundation', objectIsEntity: false },
      { subject: 'Debian', predicate: 'stand for', object: 'Free Software Foundation', objectIsEntity: false },
    ]
    scorePassage(labeled, { entities: [], claims }, counts)
    assert.deepEqual([counts.claimsRight, counts.claimsInformative, counts.claimsOut, counts.claimsFound], [1, 1, 4, 0])
  })

  it('scores single-valued facts by kind: dated leaders are a supersession, undated ones a (false) contradiction', () => {
    const set = { functional: [{ subject: 'Debian', predicate: 'lead', kind: 'supersession' as const, split: 'tune' as const }], passages: [passage] }
    const lead = (subject: string, when?: string) => ({
      passage,
      claim: { subject, predicate: 'lead', object: 'Debian', objectIsEntity: true, ...(when ? { when } : {}) },
    })
    const dated = scoreFunctional(set, 'tune', { claims: [lead('Ian Murdock', 'August 1993'), lead('Bruce Perens', 'April 1996')] }, 4)
    assert.deepEqual([dated.supersessions.right, dated.supersessions.reported, dated.supersessions.labeled, dated.contradictions.reported], [1, 1, 1, 0])
    const undated = scoreFunctional(set, 'tune', { claims: [lead('Ian Murdock'), lead('Bruce Perens')] }, 4)
    assert.deepEqual([undated.contradictions.right, undated.contradictions.reported, undated.supersessions.right], [0, 1, 0])
    assert.equal(scoreFunctional(set, 'held-out', { claims: [] }, 4).supersessions.labeled, 0, 'labels count on their own split only')
  })

  it("reads a single-valued fact's names as the labeled entities they name", () => {
    const faq = (id: string): Passage => ({ ...passage, id, entities: [{ name: 'stable', kind: 'product', aliases: ['stable distribution'] }], claims: [] })
    const set = { functional: [{ subject: 'stable', predicate: 'be currently', kind: 'contradiction' as const, split: 'tune' as const }], passages: [] }
    const current = (p: Passage, subject: string, object: string) => ({
      passage: p,
      claim: { subject, predicate: 'be currently', object, objectIsEntity: true },
    })
    const f = scoreFunctional(set, 'tune', { claims: [current(faq('11'), 'stable', 'bullseye'), current(faq('12'), 'stable distribution', 'bookworm')] }, 4)
    assert.deepEqual([f.contradictions.right, f.contradictions.reported, f.contradictions.labeled], [1, 1, 1])
    const agree = scoreFunctional(
      set,
      'tune',
      { claims: [current(faq('11'), 'stable', 'bullseye'), current(faq('11b'), 'stable distribution', 'bullseye')] },
      4,
    )
    assert.equal(agree.contradictions.reported, 0, 'one value under two labeled names is no conflict')
  })
})
