/**
 * What a projection keeps beyond its triples, as the app role: each entity's description, each
 * claim's description and date (valid_from); and what the insights pass makes of dates: leaders
 * of Debian dated one after another are a supersession, not a contradiction, while two more
 * leaders no date separates are one.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { extractBuiltin } from '../../src/graph/builtin-extractor.js'
import { cleanExtraction, type Extractor } from '../../src/graph/extraction.js'
import { findContradictions } from '../../src/graph/insights/contradictions.js'
import { projectChunk, writeProjection } from '../../src/graph/project-chunk.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { A, type AppLogin, createAppLogin } from '../scope/app-login.js'
import { addDocument, asSet, graphSettings } from './helpers/graph.js'

let db: TestDatabase
let app: AppLogin

before(async () => {
  db = await createTestDatabase()
  app = await createAppLogin(db)
})
after(async () => {
  await app.drop()
  await db.drop()
})

const builtin: Extractor = { name: 'builtin', extract: async (text) => extractBuiltin(text) }
const labeled = JSON.parse(readFileSync(new URL('../fixtures/graph-eval/passages.json', import.meta.url), 'utf8')) as { passages: { id: string; text: string }[] }
const leaders = labeled.passages.find((p) => p.id === 'history-leaders-early')?.text ?? ''

describe('descriptions, dates and supersession', () => {
  it('stores descriptions and the date a claim became true, and reads dated leaders as a supersession', async () => {
    const chunks = await addDocument(app.scoped, [A], 'Debian history', leaders)
    for (const chunkId of chunks) await projectChunk(app.scoped, graphSettings(), { chunkId, scopes: [A] }, builtin)

    const rows = await asSet(app.scoped, [A], async (q) =>
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

  it('reports a contradiction when two values of one single-valued fact have no date between them', async () => {
    const [chunk] = await addDocument(app.scoped, [A], 'a disagreeing note', 'Two people are said to lead Debian.')
    const extraction = cleanExtraction({
      entities: [
        { name: 'Carol Doe', kind: 'person', description: 'Said to lead Debian.' },
        { name: 'Dan Roe', kind: 'person' },
        { name: 'Debian', kind: 'concept' },
      ],
      claims: [
        { subject: 'Carol Doe', predicate: 'lead', object: 'Debian', objectIsEntity: true, description: 'Carol Doe leads Debian.' },
        { subject: 'Dan Roe', predicate: 'lead', object: 'Debian', objectIsEntity: true },
      ],
    })
    await asSet(app.scoped, [A], (q) => writeProjection(q, [A], chunk, extraction, 90))

    const found = await asSet(app.scoped, [A], (q) => findContradictions(q, [A], 4))
    assert.deepEqual(
      found.map((f) => [f.detail.subject, f.detail.predicate, [...(f.detail.objects as string[])].sort()]),
      [['Debian', 'lead', ['Carol Doe', 'Dan Roe']]],
    )
    const leads = await asSet(app.scoped, [A], async (q) => (await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM claim WHERE predicate = 'lead'`)).rows[0].n)
    assert.equal(found[0].claimIds.length, leads, 'the evidence is every live claim of the fact, dated and undated')
    const stored = await asSet(app.scoped, [A], async (q) =>
      (
        await q.query<{ description: string | null; entity: string | null }>(
          `SELECT c.description, s.description AS entity FROM claim c JOIN entity s ON s.id = c.subject_id WHERE s.name = 'Carol Doe'`,
        )
      ).rows,
    )
    assert.deepEqual(stored, [{ description: 'Carol Doe leads Debian.', entity: 'Said to lead Debian.' }])
  })
})
