/**
 * The evaluation's matching rules (docs/memory-graph.md, "The evaluation"), on a made-up
 * passage: a duplicate name counts wrong, an optional one neither way, a claim matches by
 * subject, predicate word without its ending, negation and object.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Passage } from '../../bench/graph-eval/labels.js'
import { scorePassage, zeroCounts } from '../../bench/graph-eval/score.js'

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
})
