/**
 * What a projection keeps beyond its triples, as the app role: each entity's description, each
 * claim's description and date (valid_from); and what the insights pass makes of dates: leaders
 * of Debian dated one after another are a supersession, not a contradiction, while two more
 * leaders no date separates are one; and a claim two overlapping chunks of one document both
 * observe is one source's evidence.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { extractBuiltin } from '../../src/graph/extract/builtin-extractor.js'
import { cleanExtraction, type Extractor } from '../../src/graph/extract/extraction.js'
import { findContradictions } from '../../src/graph/maintain/insights/contradictions.js'
import { projectChunk } from '../../src/graph/project/project-chunk.js'
import { writeDocument } from '../../src/graph/project/write-memory.js'
import { A, B, fileAppLogin } from '../support/app-login.js'
import { fileDatabase } from '../support/db.js'
import { addDocument, asSet, graphSettings, projectExtraction } from '../support/graph/graph.js'

const db = await fileDatabase()
const app = await fileAppLogin(db)

const builtin: Extractor = { name: 'builtin', extract: async (text) => extractBuiltin(text) }
const labeled = JSON.parse(readFileSync(new URL('../fixtures/graph-eval/passages.json', import.meta.url), 'utf8')) as {
  passages: { id: string; text: string }[]
}
const leaders = labeled.passages.find((p) => p.id === 'history-leaders-early')?.text ?? ''

describe('descriptions, dates and supersession', () => {
  it('stores descriptions and the date a claim became true, and reads dated leaders as a supersession', async () => {
    const chunks = await addDocument(app.scoped, [A], 'Debian history', leaders)
    for (const chunkId of chunks) await projectChunk(app.scoped, graphSettings(), { chunkId, scopes: [A] }, builtin)

    const rows = await asSet(
      app.scoped,
      [A],
      async (q) =>
        (
          await q.query<{ name: string; description: string | null; valid_from: string | null }>(
            `SELECT s.name, s.description, c.valid_from FROM claim c JOIN entity s ON s.id = c.subject_id
            WHERE c.predicate = 'lead' ORDER BY s.name`,
          )
        ).rows,
    )
    const bruce = rows.find((r) => r.name === 'Bruce Perens')
    assert.equal(bruce?.valid_from, 'April 1996')
    assert.match(bruce?.description ?? '', /Bruce Perens led Debian from April 1996/)
    assert.ok(rows.length >= 5, `${rows.length} leaders`)

    const found = await asSet(app.scoped, [A], (q) => findContradictions(q, [A], 4))
    assert.deepEqual(found, [], 'leaders dated one after another replaced one another')
  })

  it('counts a sentence seen by two overlapping chunks of one document as one source', async () => {
    // Sentences of the real history, chunked with the product's overlap: a claim of the overlap
    // is observed by both neighbours and must not weigh more than a claim seen once.
    const text = labeled.passages
      .filter((p) => p.id.startsWith('history-') || p.id.startsWith('faq-'))
      .map((p) => p.text)
      .join('\n\n')
    const settings = graphSettings({ AIZK_CHUNK_MAX_CHARS: '600', AIZK_CHUNK_OVERLAP_CHARS: '300' })
    const chunks = await asSet(app.scoped, [B], async (db) => {
      const doc = await writeDocument(db, [B], { title: 'overlapping', body: text }, settings)
      return (await db.query<{ id: string }>('SELECT id::text FROM chunk WHERE document_id = $1 ORDER BY ordinal', [doc.documentId])).rows.map((r) => r.id)
    })
    assert.ok(chunks.length >= 4, `${chunks.length} chunks`)
    for (const chunkId of chunks) await projectChunk(app.scoped, settings, { chunkId, scopes: [B] }, builtin)
    const rows = await asSet(
      app.scoped,
      [B],
      async (q) =>
        (
          await q.query<{ chunks: number; weight: number }>(
            'SELECT (SELECT count(*)::int FROM claim_source s WHERE s.claim_id = c.id) AS chunks, c.weight FROM claim c',
          )
        ).rows,
    )
    assert.ok(
      rows.some((r) => r.chunks >= 2),
      'some claim was observed by two neighbouring chunks',
    )
    assert.deepEqual(
      rows.filter((r) => Math.abs(r.weight - 1) > 1e-6),
      [],
      'every claim of one document weighs one',
    )
  })

  it('reports a contradiction when two values of one single-valued fact have no date between them', async () => {
    const [chunk] = await addDocument(app.scoped, [A], 'a disagreeing note', 'Two people are said to lead Debian.')
    const extraction = cleanExtraction({
      entities: [
        { name: 'Carol Doe', kind: 'person', description: 'Said to lead Debian.' },
        { name: 'Dan Roe', kind: 'person' },
        // The kind the built-in extractor gives Debian in the leaders' passage above, so these claims are about the same entity.
        { name: 'Debian', kind: 'organisation' },
      ],
      claims: [
        { subject: 'Carol Doe', predicate: 'lead', object: 'Debian', objectIsEntity: true, description: 'Carol Doe leads Debian.' },
        { subject: 'Dan Roe', predicate: 'lead', object: 'Debian', objectIsEntity: true },
      ],
    })
    await projectExtraction(app.scoped, [A], chunk, extraction)

    const found = await asSet(app.scoped, [A], (q) => findContradictions(q, [A], 4))
    assert.deepEqual(
      found.map((f) => [f.detail.subject, f.detail.predicate, [...(f.detail.objects as string[])].sort()]),
      [['Debian', 'lead', ['Carol Doe', 'Dan Roe']]],
    )
    const leads = await asSet(
      app.scoped,
      [A],
      async (q) => (await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM claim WHERE predicate = 'lead'`)).rows[0].n,
    )
    assert.equal(found[0].claimIds.length, leads, 'the evidence is every live claim of the fact, dated and undated')
    const stored = await asSet(
      app.scoped,
      [A],
      async (q) =>
        (
          await q.query<{ description: string | null; entity: string | null }>(
            `SELECT c.description, s.description AS entity FROM claim c JOIN entity s ON s.id = c.subject_id WHERE s.name = 'Carol Doe'`,
          )
        ).rows,
    )
    assert.deepEqual(stored, [{ description: 'Carol Doe leads Debian.', entity: 'Said to lead Debian.' }])
  })

  it("keeps an entity's first description: given when it is created, or later to one created without any", async () => {
    const chunks = await addDocument(app.scoped, [B], 'three notes', ['First note.', 'Second note.', 'Third note.'].map((t) => t.repeat(400)).join('\n\n'))
    assert.ok(chunks.length >= 3, `expected three chunks, got ${chunks.length}`)
    const say = (chunk: string, entities: { name: string; description?: string }[]) =>
      projectExtraction(app.scoped, [B], chunk, { entities: entities.map((e) => ({ ...e, kind: 'person' })), claims: [] })
    const described = () =>
      asSet(
        app.scoped,
        [B],
        async (q) =>
          (
            await q.query<{ name: string; description: string | null }>(
              "SELECT name, description FROM entity WHERE name IN ('Erin Poe', 'Finn Lee') ORDER BY name",
            )
          ).rows,
      )
    await say(chunks[0], [{ name: 'Erin Poe', description: 'Described at birth.' }, { name: 'Finn Lee' }])
    assert.deepEqual(await described(), [
      { name: 'Erin Poe', description: 'Described at birth.' },
      { name: 'Finn Lee', description: null },
    ])
    await say(chunks[1], [
      { name: 'Erin Poe', description: 'Said second.' },
      { name: 'Finn Lee', description: 'Described later.' },
    ])
    await say(chunks[2], [{ name: 'Finn Lee', description: 'Said third.' }])
    assert.deepEqual(await described(), [
      { name: 'Erin Poe', description: 'Described at birth.' },
      { name: 'Finn Lee', description: 'Described later.' },
    ])
  })
})
