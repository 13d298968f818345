/**
 * Resolution as the worker runs it (DedupJob through the app role): acronyms, partial names
 * within the set and designators merge, the better name is kept, look-alike names do not merge,
 * every merge is recorded, and undoing every record puts the set's graph back as it was; an
 * undone pair is never merged again, and another set can neither see nor undo the records.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Extraction } from '../../src/graph/extract/extraction.js'
import { readMerges, undoMerge } from '../../src/graph/resolve/merge-history.js'
import { DedupJob } from '../../src/jobs/inventory/index.js'
import { A, B, C, fileAppLogin, identity } from '../support/app-login.js'
import { fileDatabase } from '../support/db.js'
import { addDocument, asSet, graphSettings, projectExtraction } from '../support/graph/graph.js'
import { startFakeServer } from '../support/inventory/fake-services.js'
import { runScoped } from '../support/inventory/run-jobs.js'

const AB = [A, B]
const db = await fileDatabase()
const app = await fileAppLogin(db)
const settings = graphSettings()

const first: Extraction = {
  entities: [
    { name: 'Wichert Akkerman', kind: 'person' },
    { name: 'Debian Project Leader', kind: 'concept' },
    { name: 'Document Foundation', kind: 'organisation' },
    { name: 'Oldstable', kind: 'product' },
    { name: "Raphaël's", kind: 'person' },
    { name: 'Sam Hartman', kind: 'person' },
    { name: 'Sam Hocevar', kind: 'person' },
  ],
  claims: [
    { subject: 'Wichert Akkerman', predicate: 'be', object: 'Debian Project Leader', objectIsEntity: true },
    { subject: "Raphaël's", predicate: 'write', object: 'the handbook', objectIsEntity: false },
  ],
}
const second: Extraction = {
  entities: [
    { name: 'Akkerman', kind: 'person' },
    { name: 'DPL', kind: 'concept' },
    { name: 'Foundation Documents', kind: 'organisation' },
    { name: 'Oldoldstable', kind: 'product' },
    { name: 'Raphaël Hertzog', kind: 'person' },
    { name: 'Sam', kind: 'person' },
  ],
  claims: [
    { subject: 'Akkerman', predicate: 'be', object: 'DPL', objectIsEntity: true },
    { subject: 'Akkerman', predicate: 'lead', object: 'the project', objectIsEntity: false },
    { subject: 'Raphaël Hertzog', predicate: 'write', object: 'the handbook', objectIsEntity: false },
    { subject: 'Sam', predicate: 'be', object: 'DPL', objectIsEntity: true },
  ],
}

type Snapshot = { entities: string[]; claims: string[]; mentions: string[] }

async function snapshot(scopes: string[]): Promise<Snapshot> {
  return asSet(app.scoped, scopes, async (q) => {
    const col = async (sql: string) => (await q.query<{ x: string }>(sql, [scopes])).rows.map((r) => r.x)
    return {
      entities: await col(`SELECT name || '/' || kind || '/' || (merged_into IS NULL) AS x FROM entity WHERE scopes = $1::uuid[] ORDER BY 1`),
      claims: await col(
        `SELECT s.name || ' ' || c.predicate || ' ' || coalesce(o.name, c.object_text) || ' w=' || round(c.weight::numeric, 3) || ' n=' ||
                (SELECT count(*) FROM claim_source cs WHERE cs.claim_id = c.id) AS x
           FROM claim c JOIN entity s ON s.id = c.subject_id LEFT JOIN entity o ON o.id = c.object_id WHERE c.scopes = $1::uuid[] ORDER BY 1`,
      ),
      mentions: await col(
        `SELECT e.name || ' ' || sum(m.count) AS x FROM mention m JOIN entity e ON e.id = m.entity_id WHERE m.scopes = $1::uuid[] GROUP BY e.name ORDER BY 1`,
      ),
    }
  })
}

const live = async (scopes: string[]) =>
  asSet(app.scoped, scopes, async (q) =>
    (await q.query<{ name: string }>('SELECT name FROM entity WHERE merged_into IS NULL AND scopes = $1::uuid[] ORDER BY name', [scopes])).rows.map(
      (r) => r.name,
    ),
  )

describe('resolution', () => {
  it('merges acronyms, partial names and designators, keeps the better name, leaves look-alikes and ambiguous names, and undoes every merge from its record', async () => {
    const [c1] = await addDocument(app.scoped, AB, 'leaders', 'Wichert Akkerman was the Debian Project Leader.')
    const [c2] = await addDocument(app.scoped, AB, 'more', 'Akkerman was DPL.')
    await projectExtraction(app.scoped, AB, c1, first)
    await projectExtraction(app.scoped, AB, c2, second)
    // The same partial name in {A} alone, with no full name there: never merged across sets.
    const [a1] = await addDocument(app.scoped, [A], 'other', 'Akkerman was DPL.')
    await projectExtraction(app.scoped, [A], a1, second)
    const before = await snapshot(AB)
    const beforeA = await snapshot([A])

    await runScoped(DedupJob, app.scoped, settings, AB)
    const names = await live(AB)
    for (const gone of ['Akkerman', 'DPL', "Raphaël's"]) assert.ok(!names.includes(gone), `${gone} was merged: ${names.join(', ')}`)
    for (const kept of [
      'Wichert Akkerman',
      'Debian Project Leader',
      'Raphaël Hertzog',
      'Document Foundation',
      'Foundation Documents',
      'Oldstable',
      'Oldoldstable',
      'Sam',
      'Sam Hartman',
      'Sam Hocevar',
    ]) {
      assert.ok(names.includes(kept), `${kept} is live: ${names.join(', ')}`)
    }
    const after = await snapshot(AB)
    assert.ok(
      after.claims.some((c) => c.startsWith('Wichert Akkerman lead project')),
      `the partial name's claims moved to the full name: ${after.claims.join(' | ')}`,
    )
    assert.ok(
      after.claims.some((c) => c.startsWith('Wichert Akkerman be Debian Project Leader w=2.000 n=2')),
      `two sources of one claim fold into one: ${after.claims.join(' | ')}`,
    )
    assert.deepEqual(await snapshot([A]), beforeA, '{A} is untouched')

    const merges = await readMerges(app.scoped, AB, identity, { limit: 50 })
    assert.deepEqual(merges.map((m) => `${m.mergedName}>${m.intoName}:${m.rule}:${m.keptName}`).sort(), [
      'Akkerman>Wichert Akkerman:partial-name:Wichert Akkerman',
      'DPL>Debian Project Leader:acronym:Debian Project Leader',
      "Raphaël Hertzog>Raphaël's:partial-name:Raphaël Hertzog",
    ])
    assert.deepEqual(await readMerges(app.scoped, [A], identity, { limit: 50 }), [], "{A} sees none of {A,B}'s merges")
    await assert.rejects(undoMerge(app.scoped, [A], identity, merges[0].id), /no merge/)

    for (const m of merges) await undoMerge(app.scoped, AB, identity, m.id)
    assert.deepEqual(await snapshot(AB), before, 'undoing every merge restores entities, names, claims, weights, evidence and mentions')
    await assert.rejects(undoMerge(app.scoped, AB, identity, merges[0].id), /already undone/)

    await runScoped(DedupJob, app.scoped, settings, AB)
    assert.deepEqual(await snapshot(AB), before, 'an undone merge is never made again')
    assert.equal((await readMerges(app.scoped, AB, identity, { limit: 50, undone: true })).length, 3)
  })

  it('never folds a one-word name into a name that qualifies it; the survivor shows a name its most mentioned member has', async () => {
    const [c1] = await addDocument(app.scoped, [B], 'distributions', 'Linux. SUSE Linux by SUSE. Debian GNU/Linux is a GNU/Linux. The Technical Committee.')
    const [c2] = await addDocument(app.scoped, [B], 'kernel', 'Linux again. The Debian Technical Committee decides.')
    const products = ['Linux', 'SUSE Linux', 'SUSE', 'Debian GNU/Linux', 'GNU/Linux', 'Debian']
    await projectExtraction(app.scoped, [B], c1, {
      entities: [...products.map((name) => ({ name, kind: 'product' })), { name: 'Technical Committee', kind: 'organisation' }],
      claims: [{ subject: 'Technical Committee', predicate: 'decide', object: 'disputes', objectIsEntity: false }],
    })
    await projectExtraction(app.scoped, [B], c2, {
      entities: [
        { name: 'Linux', kind: 'product' },
        { name: 'Debian Technical Committee', kind: 'organisation' },
        { name: 'Debian', kind: 'organisation' },
      ],
      claims: [],
    })
    // A two-letter acronym merges only where a text of the set defines it, however the text breaks and capitalizes it.
    const [c3] = await addDocument(app.scoped, [B], 'acronyms', 'Free\n  software (FS) runs on any PC. OS means many things.')
    const concepts = ['FS', 'Free Software', 'PC', 'Personal Computer', 'OS', 'Open Source']
    await projectExtraction(app.scoped, [B], c3, { entities: concepts.map((name) => ({ name, kind: 'concept' })), claims: [] })
    await runScoped(DedupJob, app.scoped, settings, [B])
    assert.deepEqual(
      (await readMerges(app.scoped, [B], identity, { limit: 10 }))
        .map((m) => `${[m.mergedName, m.intoName].sort().join(' + ')}, kept ${m.keptName}:${m.rule}`)
        .sort(),
      [
        'Debian + Debian, kept Debian:same-name',
        'Debian Technical Committee + Technical Committee, kept Debian Technical Committee:partial-name',
        'FS + Free Software, kept Free Software:acronym',
      ],
    )
    const names = await live([B])
    for (const kept of [...products, 'PC', 'Personal Computer', 'OS', 'Open Source']) assert.ok(names.includes(kept), `${kept} is live: ${names.join(', ')}`)
  })

  it('with an embeddings endpoint, merges names only vectors relate, never word-order swaps or one-word look-alikes', async () => {
    // Vectors by meaning, as a model would give them: each name's vector names the thing it means.
    const meaning: Record<string, number[]> = {
      'debian 9': [1, 0, 0],
      'debian 9 stretch': [1, 0.05, 0],
      'debian 10': [0, 1, 0],
      'document foundation': [0, 0, 1],
      'foundation documents': [0, 0.02, 1],
    }
    const asked: string[] = []
    const server = await startFakeServer((req) => {
      const { input } = JSON.parse(req.body.toString()) as { input: string[] }
      asked.push(...input)
      return { status: 200, body: { data: input.map((text, index) => ({ index, embedding: meaning[text] ?? [0.3, 0.3, 0.3] })) } }
    })
    try {
      const [chunk] = await addDocument(app.scoped, [C], 'releases', 'Debian 9 Stretch, then Debian 10. The Document Foundation; the Foundation Documents.')
      const names = ['Debian 9 Stretch', 'Debian 9', 'Debian 10', 'Document Foundation', 'Foundation Documents']
      await projectExtraction(app.scoped, [C], chunk, { entities: names.map((name) => ({ name, kind: 'product' })), claims: [] })
      await runScoped(DedupJob, app.scoped, graphSettings({ AIZK_EMBEDDINGS_URL: `${server.url}/v1` }), [C])
      // Which row survives follows the entities' ids; the name it shows is the better one either way.
      assert.deepEqual(
        (await readMerges(app.scoped, [C], identity, { limit: 10 })).map(
          (m) => `${[m.mergedName, m.intoName].sort().join(' + ')}, kept ${m.keptName}:${m.rule}`,
        ),
        ['Debian 9 + Debian 9 Stretch, kept Debian 9 Stretch:embedding'],
      )
      assert.ok(!asked.includes('document foundation'), 'a word-order swap is never sent to be compared')
    } finally {
      await server.close()
    }
  })
})
