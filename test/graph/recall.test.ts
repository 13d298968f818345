/**
 * recall() against real PostgreSQL, on a login that is neither owner nor superuser, over graphs
 * projected by the built-in extractor: the claim that answers a question comes back with the
 * document it came from; nothing from a set outside the read set ever does (containment: a reader
 * of {A,B} sees {A} and {A,B}, a reader of {A} sees neither {B} nor {A,B}); knownAt leaves out what
 * was superseded before it; the candidate function answers nothing without the owner's proof.
 */
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { closeExtractionPool } from '../../src/graph/extract/extract-pool.js'
import { cleanExtraction } from '../../src/graph/extract/extraction.js'
import { recall } from '../../src/graph/read/recall.js'
import type { RecallResult } from '../../src/graph/read/recall-types.js'
import { A, B, C, fileAppLogin, identity } from '../support/app-login.js'
import { fileDatabase } from '../support/db.js'
import { addDocument, projectAs, projectExtraction } from '../support/graph/graph.js'

const db = await fileDatabase()
const app = await fileAppLogin(db)

const inSet = (scopes: string[], read: string[]) => scopes.every((s) => read.includes(s))

/** Every scope a result names, from every part of it. */
function scopesOf(r: RecallResult): string[][] {
  return [
    ...r.items.map((i) => i.scopes),
    ...r.claims.map((c) => c.scopes),
    ...r.entities.map((e) => e.scopes),
    ...r.chunks.map((c) => c.scopes),
    ...r.communities.map((m) => m.scopes),
  ]
}

async function ingest(scopes: string[], title: string, body: string) {
  for (const id of await addDocument(app.scoped, scopes, title, body)) await projectAs(app.scoped, id, scopes)
}

before(async () => {
  await ingest(
    [A],
    'Debian history',
    'Ian Murdock founded Debian in 1993. Debian is a free operating system. The Debian Project elects a Debian Project Leader every year.',
  )
  await ingest([B], 'Zebra history', 'Ian Murdock founded Zebra Linux in 1997. Zebra Linux is a commercial operating system sold by Zebra Corporation.')
  await ingest([A, B], 'Shared notes', 'Debian adopted systemd in 2015. Lennart Poettering wrote systemd.')
  await ingest([A, C], 'Other notes', 'Debian moved its bug tracker to Gitlab in 2019. Gitlab hosts the Salsa service.')
})
db.beforeDrop(async () => {
  await closeExtractionPool()
})

describe('recall', () => {
  it('answers with the claim and the document it came from, as the app role', async () => {
    const r = await recall(app.scoped, { readScopes: [A], query: 'Who founded Debian?', limit: 5 }, identity)
    const claim = r.claims.find((c) => c.subject === 'Ian Murdock' && c.object === 'Debian')
    assert.ok(claim, `the founding claim is among ${JSON.stringify(r.items.map((i) => i.text))}`)
    assert.ok(
      r.items.slice(0, 5).some((i) => i.kind === 'claim' && i.id === claim.id),
      'and in the first five items',
    )
    assert.equal(claim.sources[0]?.title, 'Debian history')
    assert.equal(claim.statedFrom, '1993', 'with the date its text gives')
    assert.ok(claim.sources[0].charStart !== null && claim.sources[0].charEnd !== null, 'with the chunk offsets')
    assert.ok(
      r.entities.some((e) => e.name === 'Debian'),
      'the entity the question names',
    )
    assert.ok(
      r.items.every((i) => i.why.length > 0 && i.score > 0),
      'every item says which rankings found it',
    )
  })

  it('a reader of {A} sees none of {B}, {A,B} or {A,C}', async () => {
    for (const query of ['Who founded Zebra Linux?', 'Ian Murdock operating system', 'systemd Lennart Poettering', 'Gitlab Salsa bug tracker']) {
      const r = await recall(app.scoped, { readScopes: [A], query, limit: 20, floor: 0 }, identity)
      for (const s of scopesOf(r)) assert.ok(inSet(s, [A]), `${query}: {${s}} is outside {A}`)
      assert.ok(!JSON.stringify({ ...r, query: '' }).includes('Zebra'), `${query}: nothing of {B}'s text`)
    }
  })

  it('a reader of {B} sees none of {A}', async () => {
    const own = await recall(app.scoped, { readScopes: [B], query: 'Who founded Zebra Linux?', limit: 20 }, identity)
    assert.ok(
      own.claims.some((c) => c.subject === 'Ian Murdock' && c.object === 'Zebra Linux'),
      'its own founding claim',
    )
    for (const query of ['Who founded Zebra Linux?', 'Who founded Debian?', 'Ian Murdock Debian 1993 free operating system']) {
      const r = await recall(app.scoped, { readScopes: [B], query, limit: 20, floor: 0 }, identity)
      assert.ok(r.items.length > 0, `${query}: with the floor off, {B}'s own items rank`)
      for (const s of scopesOf(r)) assert.deepEqual(s, [B])
      assert.ok(!JSON.stringify({ ...r, query: '' }).includes('Debian'), `${query}: never {A}'s text`)
    }
  })

  it('a reader of {A,B} sees {A}, {B} and {A,B}, never {A,C}', async () => {
    const seen = new Set<string>()
    for (const query of ['Who founded Debian?', 'Who founded Zebra Linux?', 'Who wrote systemd?', 'Gitlab Salsa bug tracker']) {
      const r = await recall(app.scoped, { readScopes: [B, A], query, limit: 20, floor: 0 }, identity)
      for (const s of scopesOf(r)) {
        assert.ok(inSet(s, [A, B]), `${query}: {${s}} is outside {A,B}`)
        seen.add(s.join(','))
      }
    }
    assert.deepEqual([...seen].sort(), [[A], [A, B].sort(), [B]].map((s) => s.join(',')).sort())
  })

  it('answers nothing when no item supports the question: the answer in another set, or nowhere', async () => {
    for (const query of ['Who founded Zebra Linux?', 'Who wrote War and Peace?']) {
      const r = await recall(app.scoped, { readScopes: [A], query, limit: 10 }, identity)
      assert.equal(r.abstained, true, `${query}: ${JSON.stringify(r.items.map((i) => [i.text.slice(0, 40), i.support]))}`)
      assert.deepEqual([r.items.length, r.claims.length, r.entities.length, r.chunks.length], [0, 0, 0, 0])
      assert.ok(r.confidence < r.floor)
    }
    const own = await recall(app.scoped, { readScopes: [B], query: 'Who founded Zebra Linux?', limit: 10 }, identity)
    assert.equal(own.abstained, false)
    assert.ok(own.claims.some((c) => c.subject === 'Ian Murdock' && c.object === 'Zebra Linux'))
    const answered = await recall(app.scoped, { readScopes: [A], query: 'Who founded Debian?', limit: 10 }, identity)
    assert.equal(answered.abstained, false)
    assert.ok(answered.items.every((i) => i.support >= 0 && i.support <= 1) && answered.confidence >= answered.floor)
  })

  it('knownAt leaves out a claim superseded before it and one not yet observed', async () => {
    const [chunk1, chunk2] = await addDocument(
      app.scoped,
      [C],
      'json',
      `${'The json module supports comments. '.repeat(60)}\n\n${'The json module does not support comments. '.repeat(60)}`,
    )
    const write = (chunk: string, predicate: string) =>
      projectExtraction(
        app.scoped,
        [C],
        chunk,
        cleanExtraction({
          entities: [{ name: 'json module', kind: 'product' }],
          claims: [{ subject: 'json module', predicate, object: 'comments', objectIsEntity: false }],
        }),
      )
    await write(chunk1, 'support')
    await write(chunk2, 'not support')
    // Spread the two observations an hour apart (row security keeps the app role from backdating).
    await db.pool.query(`UPDATE claim SET created = now() - interval '2 hours' WHERE predicate = 'support' AND scopes = $1`, [[C]])
    await db.pool.query(`UPDATE claim SET created = now() - interval '1 hour' WHERE predicate = 'not support' AND scopes = $1`, [[C]])
    const predicates = async (knownAt?: Date) =>
      (await recall(app.scoped, { readScopes: [C], query: 'Does the json module support comments?', limit: 10, knownAt }, identity)).claims
        .map((c) => c.predicate)
        .sort()
    assert.deepEqual(await predicates(), ['not support'], 'now: the superseding claim only')
    assert.deepEqual(await predicates(new Date(Date.now() - 90 * 60_000)), ['support'], 'between the two: the older claim only')
    assert.deepEqual(await predicates(new Date(Date.now() - 3 * 3600_000)), [], 'before both: neither')
  })

  it('ranks chunks by the question vector when one is given, within the read set only', async () => {
    // Chunk vectors pointing one way for {A}'s history chunk, {B}'s and {A,B}'s; every other chunk elsewhere.
    await db.pool.query(`UPDATE chunk SET embedding = '{0,0,1}'`)
    await db.pool.query(
      `UPDATE chunk SET embedding = '{1,0,0}' WHERE text LIKE 'Ian Murdock founded Debian%' OR text LIKE 'Ian Murdock founded Zebra%' OR text LIKE 'Debian adopted systemd%'`,
    )
    const r = await recall(app.scoped, { readScopes: [A], query: 'zzzz qqqq', limit: 5, queryVector: [0.9, 0.1, 0] }, identity)
    assert.equal(r.items[0]?.kind, 'chunk')
    assert.match(r.chunks[0].text, /^Ian Murdock founded Debian/)
    assert.deepEqual(r.items[0].why, ['chunk vector #1'])
    assert.ok(!JSON.stringify(r.chunks).includes('systemd'), "{A,B}'s chunk is not {A}'s")
    const b = await recall(app.scoped, { readScopes: [B], query: 'zzzz qqqq', limit: 5, queryVector: [0.9, 0.1, 0] }, identity)
    assert.match(b.chunks[0].text, /^Ian Murdock founded Zebra/)
    for (const s of scopesOf(b)) assert.deepEqual(s, [B])
  })

  it('the candidate function answers nothing without the owner proof of a read set', async () => {
    const forged = await app.pool.connect()
    try {
      await forged.query('BEGIN')
      await forged.query(`SET LOCAL ROLE ${identity.appRole}`)
      const { rows } = await forged.query(`SELECT * FROM aizk_recall_candidates('debian | murdock'::tsquery, ARRAY['debian'], ARRAY['debian'], 20)`)
      assert.deepEqual(rows, [], 'no read set: nothing')
      await forged.query(`SELECT set_config('aizk.read_scopes', $1, true)`, [`{${A}}`])
      const { rows: again } = await forged.query(`SELECT * FROM aizk_recall_candidates('debian | murdock'::tsquery, ARRAY['debian'], ARRAY['debian'], 20)`)
      assert.deepEqual(again, [], 'a read set named without its proof is empty')
    } finally {
      await forged.query('ROLLBACK')
      forged.release()
    }
  })
})
