/**
 * The package-by-package evaluation (docs/memory-graph.md, "The evaluation"): every labels file
 * checked before anything runs, the informativeness rule, kind accuracy and entities in a claim,
 * and merge precision on extracted names, on made-up passages; and the real fixtures load.
 */
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, it } from 'node:test'
import { scoreMerges, zeroMerges } from '../../bench/graph-eval/merges.js'
import { loadEvaluation } from '../../bench/graph-eval/packages.js'
import { isInformative, objectCutOff, scoredClaim } from '../../bench/graph-eval/quality.js'
import { printReport, type Row } from '../../bench/graph-eval/report.js'
import type { LabeledClaim, Passage } from '../../bench/graph-eval/schema.js'
import { scorePassage, zeroCounts } from '../../bench/graph-eval/score.js'

const fixtures = path.resolve('test/fixtures/graph-eval')

const passage = (id: string, over: Partial<Passage> = {}): Passage => ({
  id,
  split: 'held-out',
  genre: 'user-manual',
  topics: ['t'],
  source: { package: 'pkg', version: '1', file: 'f.html', lines: '1-9' },
  text: 'A CD-R can prevent overwrite accidents.',
  entities: [
    { name: 'Linux', kind: 'product', aliases: ['Linux kernel'] },
    { name: 'CD-R', kind: 'product', aliases: [] },
  ],
  claims: [{ subject: 'CD-R', predicates: ['prevent'], object: 'overwrite accidents', objectIsEntity: false, modality: 'can' }],
  ...over,
})

function withPackageFile(contents: unknown, run: (dir: string) => void) {
  const dir = mkdtempSync(path.join(tmpdir(), 'aizk-eval-'))
  try {
    writeFileSync(path.join(dir, 'passages.json'), JSON.stringify({ passages: [] }))
    mkdirSync(path.join(dir, 'packages'))
    writeFileSync(path.join(dir, 'packages', 'pkg.json'), JSON.stringify(contents))
    run(dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const packageFile = (passages: unknown[]) => ({ package: 'pkg', version: '1', genre: 'user-manual', generator: 'DocBook XSL', passages })

describe('graph evaluation, package by package', () => {
  it('loads the real fixtures: the old set as tuned, every package file as never tuned', () => {
    const e = loadEvaluation(fixtures)
    assert.ok(e.packages.filter((p) => p.tuned).length >= 5)
    assert.ok(
      e.packages.every((p) => p.tuned === ['debian-handbook', 'python3.11-doc', 'debian-history', 'debian-faq', 'debian-reference-en'].includes(p.name)),
    )
  })

  it('refuses a misspelt label field, naming the file and the field', () => {
    const bad = { ...passage('p1'), claims: [{ subject: 'CD-R', predicates: ['prevent'], object: 'x', objectIsEntity: false, negate: true }] }
    withPackageFile(packageFile([bad]), (dir) =>
      assert.throws(() => loadEvaluation(dir), /pkg\.json: labels do not follow the format[\s\S]*passages\.0\.claims\.0/),
    )
  })

  it('refuses a claim whose subject is no labeled entity, and an id used twice', () => {
    const orphan = { ...passage('p1'), claims: [{ subject: 'Git', predicates: ['be'], object: 'x', objectIsEntity: false }] }
    withPackageFile(packageFile([orphan]), (dir) => assert.throws(() => loadEvaluation(dir), /claim subject "Git" is not a labeled entity/))
    withPackageFile(packageFile([passage('p1'), passage('p1')]), (dir) => assert.throws(() => loadEvaluation(dir), /p1 is used twice/))
  })

  it('calls an object cut off when it ends in a determiner, adjective or number, or is only a pronoun', () => {
    for (const cut of ['everything', 'it', 'the last two', 'infrastructure for', 'free']) assert.equal(objectCutOff(cut), true, cut)
    for (const whole of ['overwrite accidents', 'packet filtering infrastructure', 'Debian']) assert.equal(objectCutOff(whole), false, whole)
  })

  it('counts a true claim informative only with its head word, its modality, past tense and end date kept', () => {
    const label: LabeledClaim = { subject: 'CD-R', predicates: ['prevent'], object: 'overwrite accidents', objectIsEntity: false, modality: 'can' }
    const claim = (predicate: string, object: string, extra = {}) => scoredClaim({ subject: 'cd-r', predicate, object, objectIsEntity: false, ...extra })
    assert.equal(isInformative(claim('can prevent', 'overwrite accidents'), label), true)
    assert.equal(isInformative(claim('prevent', 'overwrite accidents', { modality: 'can' }), label), true)
    assert.equal(isInformative(claim('prevent', 'overwrite accidents'), label), false, 'modality dropped')
    assert.equal(isInformative(claim('can prevent', 'overwrite'), label), false, 'head noun cut off')
    const past: LabeledClaim = { subject: 'Qt', predicates: ['be'], object: 'free software', objectIsEntity: false, negated: true, past: true }
    assert.equal(isInformative(claim('not be', 'free software'), past), false, 'tense dropped')
    assert.equal(isInformative(claim('not be', 'free software', { past: true }), past), true)
    const until: LabeledClaim = { subject: 'X', predicates: ['lead'], object: 'Debian', objectIsEntity: true, until: 'March 1998' }
    assert.equal(isInformative(scoredClaim({ subject: 'x', predicate: 'lead', object: 'debian', objectIsEntity: true, validFrom: 'April 1996' }), until), false)
    assert.equal(
      isInformative(scoredClaim({ subject: 'x', predicate: 'lead', object: 'debian', objectIsEntity: true, validTo: 'March 1998' } as never), until),
      true,
    )
  })

  it('scores kinds over matched entities, and entities that sit in a claim', () => {
    const counts = zeroCounts()
    const entity = (name: string, kind: string) => ({ name, normalizedName: name.toLowerCase(), kind, mentions: 1 })
    const claims = [{ subject: 'cd-r', predicate: 'can prevent', object: 'overwrite accidents', objectIsEntity: false }]
    scorePassage(passage('p'), { entities: [entity('Linux', 'concept'), entity('CD-R', 'product'), entity('Toggle', 'concept')], claims }, counts)
    assert.deepEqual([counts.kindsRight, counts.kindsJudged, counts.entitiesInClaims, counts.entitiesOut, counts.claimsInformative], [1, 2, 1, 3, 1])
  })

  it('pools the never-tuned packages apart from the tuned ones and prints each pooled figure beside its target', () => {
    const row = (name: string, tuned: boolean, right: number, out: number): Row => ({
      name,
      tuned,
      label: name,
      counts: { ...zeroCounts(), passages: 2, entitiesRight: right, entitiesOut: out },
      merges: zeroMerges(),
      big: 0,
      coherent: 0,
      entityNames: 10,
      contradictions: tuned ? undefined : { reported: 1, right: 1, labeled: 1 },
    })
    const lines: string[] = []
    const log = console.log
    console.log = (...args: unknown[]) => lines.push(args.join(' '))
    try {
      printReport('t', [row('old', true, 9, 10), row('a', false, 8, 10), row('b', false, 9, 10)], { reported: 2, right: 1, labeled: 2 })
    } finally {
      console.log = log
    }
    const out = lines.join('\n')
    assert.match(out, /\| \*\*pooled, never tuned\*\* \| no \| 4 \| 0\.85 \(17\/20\)/)
    assert.match(out, /\| pooled, all \| no \| 6 \| 0\.87 \(26\/30\)/)
    assert.match(out, /entity precision 0\.85 \(17\/20\) target >= 0\.85: met/)
    assert.match(out, /seeded contradictions recall 0\.75 \(3\/4\) target >= 0\.7: met; precision 0\.75 \(3\/4\) target >= 0\.8: NOT met/)
  })

  it('judges merges by labeled identity and by the name the group is shown under', async () => {
    const p = passage('p', {
      entities: [
        { name: 'Linux', kind: 'product', aliases: ['Linux kernel'] },
        { name: 'Secure Shell', kind: 'product', aliases: [] },
        { name: 'Shell', kind: 'concept', aliases: [] },
      ],
    })
    const e = (name: string, mentions = 1, kind = 'product') => ({ name, normalizedName: name.toLowerCase(), kind, mentions })
    // The resolver's own rules decide what merges; here every pair of names does, to test the judging.
    const everyPair = async (all: { id: string }[]) => all.slice(1).map((x) => ({ a: all[0].id, b: x.id }))
    const right = await scoreMerges([p], [[e('Linux', 24), e('Linux kernel')]], [], zeroMerges(), everyPair)
    assert.deepEqual([right.right, right.wrong], [1, 0])
    // The resolver shows a group under its most-mentioned member's name: here the unlabeled one.
    const renamed = await scoreMerges([p], [[e('Linux'), e('Loading Linux', 24)]], [], zeroMerges(), everyPair)
    assert.deepEqual([renamed.right, renamed.wrong, renamed.examples], [0, 1, ['linux shown as "Loading Linux"']], 'shown under a name nobody labeled')
    const apart = await scoreMerges(
      [p],
      [[e('Shell', 3, 'concept'), e('Secure Shell', 1, 'concept')]],
      [{ names: ['Shell', 'Secure Shell'], same: false }],
      zeroMerges(),
      everyPair,
    )
    assert.deepEqual([apart.right, apart.wrong], [0, 1])
    const unlabeled = await scoreMerges([p], [[e('Ctrl D'), e('Toggle')]], [], zeroMerges(), everyPair)
    assert.deepEqual([unlabeled.right, unlabeled.wrong, unlabeled.unjudged], [0, 0, 1])
    const resolver = await scoreMerges([p], [[e('Linux', 24), e('Linux kernel')]], [], zeroMerges())
    assert.equal(resolver.wrong, 0, 'the real resolver never makes a labeled name and its alias two different things')
  })
})
