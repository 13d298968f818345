/**
 * ChunkProjectionJob's body against real PostgreSQL, as the app role, on real prose from the
 * Python documentation (Debian's python3.11-doc): what it writes, that re-running a chunk
 * changes nothing, that evidence reinforces and withdraws, that a contradiction supersedes, and
 * that a pass for {A,B} neither writes a row {A} alone can read nor reads one of {A}'s.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { closeExtractionPool } from '../../src/graph/extract/extract-pool.js'
import type { Extraction } from '../../src/graph/extract/extraction.js'
import { projectChunk } from '../../src/graph/project/project-chunk.js'
import { A, B, fileAppLogin, identity } from '../support/app-login.js'
import { fileDatabase } from '../support/db.js'
import { corpusText } from '../support/graph/corpus.js'
import { addDocument, asSet, countVisible, graphSettings, projectAs, projectExtraction } from '../support/graph/graph.js'

const AB = [A, B]
const db = await fileDatabase()
const app = await fileAppLogin(db)
// The opening of "What's New in Python 2.0" (A.M. Kuchling, Moshe Zadka): people, organisations, events.
const prose = () => corpusText('whatsnew/2.0.rst.txt').slice(0, 7000)

db.beforeDrop(async () => {
  await closeExtractionPool()
})

async function snapshot(scopes: string[]) {
  return asSet(app.scoped, scopes, async (q) => ({
    entities: (await q.query('SELECT id, name, kind, merged_into, scopes::text FROM entity ORDER BY id')).rows,
    claims: (await q.query('SELECT id, subject_id, predicate, object_key, weight, superseded_by, faded, scopes::text FROM claim ORDER BY id')).rows,
    sources: (await q.query('SELECT claim_id, chunk_id FROM claim_source ORDER BY claim_id, chunk_id')).rows,
    mentions: (await q.query('SELECT entity_id, chunk_id, count FROM mention ORDER BY chunk_id, entity_id')).rows,
    profiles: (await q.query('SELECT entity_id, scopes::text FROM profile ORDER BY entity_id')).rows,
  }))
}

function claimOf(subject: string, predicate: string, object: string, objectIsEntity = false): Extraction {
  return {
    entities: [{ name: subject, kind: 'person' }, ...(objectIsEntity ? [{ name: object, kind: 'person' }] : [])],
    claims: [{ subject, predicate, object, objectIsEntity }],
  }
}

describe('chunk projection', () => {
  it('writes entities, claims, mentions and dirty profiles from real prose, and a re-run changes nothing', async () => {
    const chunks = await addDocument(app.scoped, [A], "What's New in Python 2.0", prose())
    assert.ok(chunks.length >= 3, `expected several chunks, got ${chunks.length}`)
    for (const id of chunks) await projectAs(app.scoped, id, [A])
    const first = await snapshot([A])
    assert.ok(
      first.entities.some((e) => e.name === 'Guido van Rossum' && e.kind === 'person'),
      'Guido van Rossum is a person',
    )
    assert.ok(
      first.entities.some((e) => e.name === 'SourceForge'),
      'SourceForge is an entity',
    )
    // Claims are made about names only (whatsnew/2.0's first 7,000 characters state 8 or so).
    assert.ok(first.claims.length >= 5, `claims: ${first.claims.length}`)
    assert.ok(first.mentions.length >= first.entities.length, 'every entity is mentioned by some chunk')
    assert.ok(first.sources.length >= first.claims.length, 'every claim names its evidence')
    assert.equal(await countVisible(app.scoped, [A], 'profile', 'dirty'), first.entities.length)
    assert.equal(await countVisible(app.scoped, [A], 'chunk', "projection_status = 'projected'"), chunks.length)
    const versions = () => asSet(app.scoped, [A], async (q) => (await q.query('SELECT id, xmin::text AS version FROM chunk ORDER BY id')).rows)
    const marked = await versions()
    for (const id of chunks) await projectAs(app.scoped, id, [A])
    assert.deepEqual(await snapshot([A]), first, 're-projecting every chunk adds, removes and reweighs nothing')
    // A chunk already marked is not written again (a new row version writes every index of it).
    assert.deepEqual(await versions(), marked, 'a re-run leaves the chunk rows as they were')
  })

  it("reinforces a claim another source observes, never a second chunk of one source; withdraws a chunk's evidence when it no longer says it", async () => {
    const [c1, c2] = await addDocument(
      app.scoped,
      [B],
      'notes',
      `${'Ada Lovelace wrote the first program. '.repeat(60)}\n\n${'She worked with Charles Babbage. '.repeat(60)}`,
    )
    const [d1] = await addDocument(app.scoped, [B], 'more notes', 'Ada Lovelace wrote the first program, as her notes show.')
    const write = (chunk: string, x: Extraction) => projectExtraction(app.scoped, [B], chunk, x)
    const claim = () =>
      asSet(
        app.scoped,
        [B],
        async (q) =>
          (
            await q.query<{ id: string; weight: number; sources: number; source_chunk_id: string }>(
              `SELECT c.id, c.weight, c.source_chunk_id::text, (SELECT count(*)::int FROM claim_source s WHERE s.claim_id = c.id) AS sources
         FROM claim c WHERE c.predicate = 'write'`,
            )
          ).rows,
      )
    await write(c1, claimOf('Ada Lovelace', 'write', 'the first program'))
    await write(c2, claimOf('ada  lovelace', 'write', 'The first program'))
    let [row] = await claim()
    assert.equal(row.sources, 2, 'each chunk is evidence')
    assert.ok(Math.abs(row.weight - 1) < 1e-6, `two chunks of one document are one source: weight ${row.weight}`)
    await write(d1, claimOf('Ada Lovelace', 'write', 'the first program'))
    ;[row] = await claim()
    assert.equal(row.sources, 3)
    assert.ok(Math.abs(row.weight - 2) < 1e-6, `another document reinforces: weight ${row.weight}`)
    await write(d1, claimOf('ada lovelace', 'write', 'the first program'))
    ;[row] = await claim()
    assert.ok(Math.abs(row.weight - 2) < 1e-6, 're-observing from the same chunk does not reinforce again')
    await write(c1, { entities: [], claims: [] })
    ;[row] = await claim()
    assert.equal(row.sources, 2)
    assert.ok(Math.abs(row.weight - 2) < 1e-6, `its document still says it through another chunk: weight ${row.weight}`)
    assert.equal(row.source_chunk_id, c2, 'the claim now names the chunk that observed it next')
    await write(c2, { entities: [], claims: [] })
    ;[row] = await claim()
    assert.equal(row.sources, 1)
    assert.ok(Math.abs(row.weight - 1) < 1e-6, `withdrawn weight ${row.weight}`)
    assert.equal(row.source_chunk_id, d1, 'the claim now names the chunk that still supports it')
    await write(d1, { entities: [], claims: [] })
    assert.deepEqual(await claim(), [], 'a claim with no evidence left is gone')
  })

  it('a newer contradicting claim supersedes the older one, which is kept', async () => {
    const [c1, c2] = await addDocument(
      app.scoped,
      [B],
      'json',
      `${'The json module supports comments. '.repeat(60)}\n\n${'The json module does not support comments. '.repeat(60)}`,
    )
    const write = (chunk: string, x: Extraction) => projectExtraction(app.scoped, [B], chunk, x)
    await write(c1, claimOf('json module', 'support', 'comments'))
    await write(c2, claimOf('json module', 'not support', 'comments'))
    const rows = await asSet(
      app.scoped,
      [B],
      async (q) =>
        (
          await q.query<{ id: string; predicate: string; superseded_by: string | null }>(
            `SELECT id::text, predicate, superseded_by::text FROM claim WHERE predicate IN ('support', 'not support') ORDER BY predicate`,
          )
        ).rows,
    )
    assert.equal(rows.length, 2)
    const [negative, positive] = rows
    assert.equal(positive.superseded_by, negative.id)
    assert.equal(negative.superseded_by, null)
  })

  it('a pass for {A,B} writes only {A,B} rows, never one {A} can read, and never reads {A}', async () => {
    const before = await snapshot([A])
    const chunks = await addDocument(app.scoped, AB, "What's New in Python 2.0", prose())
    for (const id of chunks) await projectAs(app.scoped, id, AB)
    // {A}'s rows are exactly as they were: the {A,B} pass matched none of its entities or claims.
    assert.deepEqual(await snapshot([A]), before)
    for (const table of ['entity', 'claim', 'claim_source', 'mention', 'profile']) {
      assert.equal(await countVisible(app.scoped, [A], table, `scopes <> '{${A}}'`), 0, `{A} reads only {A} rows of ${table}`)
      assert.ok((await countVisible(app.scoped, AB, table, `scopes = '{${A},${B}}'`)) > 0, `{A,B} has its own ${table} rows`)
      assert.equal(await countVisible(app.scoped, AB, table, `scopes <> '{${A},${B}}' AND scopes <> '{${A}}' AND scopes <> '{${B}}'`), 0)
    }
    const guido = (await db.pool.query<{ scopes: string }>("SELECT scopes::text FROM entity WHERE name = 'Guido van Rossum' ORDER BY cardinality(scopes)")).rows
    assert.deepEqual(
      guido.map((r) => r.scopes),
      [`{${A}}`, `{${A},${B}}`],
      'one entity per set, never shared',
    )

    // A payload naming {A,B} for a chunk of {A}: not read, nothing written.
    const [aChunk] = (await db.pool.query<{ id: string }>(`SELECT id::text FROM chunk WHERE scopes = '{${A}}' LIMIT 1`)).rows
    const abBefore = await snapshot(AB)
    await projectAs(app.scoped, aChunk.id, AB)
    assert.deepEqual(await snapshot(AB), abBefore)
    // And the database itself refuses an {A} row from the {A,B} identity.
    await assert.rejects(
      asSet(app.scoped, AB, (q) => q.query(`INSERT INTO entity (scopes, name, normalized_name, kind) VALUES ('{${A}}', 'x', 'x', 'concept')`)),
      /row-level security/,
    )
  })

  // The owner login (no app login attached) sends the write as one batch of literal SQL: what
  // quoting could break must arrive byte for byte, and the chunk check must still hold.
  describe('the one-batch write on the owner login', () => {
    const C = '00000000-0000-4000-8000-00000000000c'
    const D = '00000000-0000-4000-8000-00000000000d'
    const settings = () => graphSettings({ AIZK_SYSTEM_USER_ID: identity.systemUserId, AIZK_APP_ROLE: identity.appRole })
    const awkward = [`O'Brien "the \\ quoted" Jr`, 'braces {a,b} and, commas', 'NULL', 'Zoë Ünïcode — 東京', "it's \\N"]

    it('writes names, predicates and literals exactly as extracted', async () => {
      const [chunk] = await addDocument(app.scoped, [C], 'awkward', 'Some text about awkward names.')
      const extractor = {
        name: 'stub',
        extract: async (): Promise<Extraction> => ({
          entities: awkward.map((name) => ({ name, kind: 'person' })),
          claims: [
            { subject: awkward[0], predicate: 'doesn\'t \\ "say"', object: awkward[1], objectIsEntity: false },
            { subject: awkward[3], predicate: 'knows', object: awkward[4], objectIsEntity: true },
          ],
        }),
      }
      const out = await projectChunk(db.pool, settings(), { chunkId: chunk, scopes: [C] }, extractor)
      assert.deepEqual(out, { outcome: 'projected', entities: 5, claims: 2, mentions: 5 })
      const names = await asSet(app.scoped, [C], async (q) =>
        (await q.query<{ name: string }>('SELECT name FROM entity ORDER BY name')).rows.map((r) => r.name),
      )
      assert.deepEqual(
        names,
        [...awkward].sort((a, b) => (a < b ? -1 : 1)),
      )
      const claims = await asSet(app.scoped, [C], async (q) => (await q.query('SELECT predicate, object_text, object_key FROM claim ORDER BY predicate')).rows)
      assert.deepEqual(
        claims.map((c) => [c.predicate, c.object_text]),
        [
          ['doesn\'t \\ "say"', awkward[1]],
          ['knows', null],
        ],
      )
      assert.equal(claims[0].object_key, `text:${awkward[1].toLowerCase()}`)
      assert.deepEqual(await projectChunk(db.pool, settings(), { chunkId: chunk, scopes: [C] }, extractor), out, 'a re-run is the same write')
    })

    it('writes nothing for a chunk changed while it was extracted, and reports a deleted one gone', async () => {
      const [changed, deleted] = await addDocument(
        app.scoped,
        [D],
        'edited',
        `${'Grace Hopper wrote a compiler. '.repeat(70)}\n\n${'Alan Turing wrote a paper. '.repeat(70)}`,
      )
      const editing = (sql: string) => ({
        name: 'stub',
        extract: async (): Promise<Extraction> => {
          await db.pool.query(sql)
          return claimOf('Grace Hopper', 'write', 'a compiler')
        },
      })
      const err = await projectChunk(
        db.pool,
        settings(),
        { chunkId: changed, scopes: [D] },
        editing(`UPDATE chunk SET text = text || ' edited' WHERE id = '${changed}'`),
      ).catch((e) => e)
      assert.match(String(err), /changed during projection/)
      assert.equal(await countVisible(app.scoped, [D], 'entity'), 0, 'nothing written from the stale text')
      assert.equal(await countVisible(app.scoped, [D], 'chunk', "projection_status = 'projected'"), 0)
      const gone = await projectChunk(db.pool, settings(), { chunkId: deleted, scopes: [D] }, editing(`DELETE FROM chunk WHERE id = '${deleted}'`))
      assert.deepEqual(gone, { outcome: 'gone' })
      assert.equal(await countVisible(app.scoped, [D], 'entity'), 0)
    })
  })
})
