/**
 * The four scoped passes run as the worker runs them (User.system(set) through the app role):
 * decay halves a claim last decayed one half life ago and fades what falls below the floor;
 * dedup merges "Ada Lovelace" and "ada  lovelace" and repoints claims, mentions and profiles;
 * profiles rebuild from the strongest claims; promotion runs once per session. None of them
 * touches a row of another set.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Extraction } from '../../src/graph/extract/extraction.js'
import { writeSessionItem } from '../../src/graph/project/write-memory.js'
import { DecayJob, DedupJob, ProfileProjectionJob, SessionPromoteJob } from '../../src/jobs/inventory/index.js'
import { A, B, C, fileAppLogin } from '../support/app-login.js'
import { fileDatabase } from '../support/db.js'
import { addDocument, asSet, graphSettings, projectExtraction } from '../support/graph/graph.js'
import { runScoped } from '../support/inventory/run-jobs.js'

const AB = [A, B]
const db = await fileDatabase()
const app = await fileAppLogin(db)
const settings = graphSettings({ AIZK_SESSION_IDLE_MINUTES: '30' })

async function project(scopes: string[], chunk: string, x: Extraction) {
  await projectExtraction(app.scoped, scopes, chunk, x)
}

async function rows<T = Record<string, unknown>>(scopes: string[], sql: string, params: unknown[] = []): Promise<T[]> {
  return asSet(app.scoped, scopes, async (q) => (await q.query(sql, params)).rows as T[])
}

const ada = (name: string, kind: string, extra: Extraction['claims'] = []): Extraction => ({
  entities: [
    { name, kind },
    { name: 'Charles Babbage', kind: 'person' },
  ],
  claims: [{ subject: name, predicate: 'write', object: 'the first program', objectIsEntity: false }, ...extra],
})

describe('decay', () => {
  it('halves a claim last decayed one half life ago, fades one below the floor, and leaves other sets alone', async () => {
    const [c1] = await addDocument(app.scoped, AB, 'decay', 'Ada Lovelace wrote the first program.')
    await project(
      AB,
      c1,
      ada('Ada Lovelace', 'person', [{ subject: 'Charles Babbage', predicate: 'design', object: 'the Analytical Engine', objectIsEntity: false }]),
    )
    const [a1] = await addDocument(app.scoped, [A], 'decay', 'Ada Lovelace wrote the first program.')
    await project([A], a1, ada('Ada Lovelace', 'person'))
    await asSet(app.scoped, AB, (q) =>
      q.query("UPDATE claim SET last_decayed = now() - interval '90 days' WHERE predicate = 'write' AND scopes = $1::uuid[]", [AB]),
    )
    await asSet(app.scoped, AB, (q) =>
      q.query("UPDATE claim SET last_decayed = now() - interval '450 days' WHERE predicate = 'design' AND scopes = $1::uuid[]", [AB]),
    )
    await asSet(app.scoped, [A], (q) => q.query("UPDATE claim SET last_decayed = now() - interval '90 days'"))

    await runScoped(DecayJob, app.scoped, settings, AB)
    const ab = await rows<{ predicate: string; weight: number; faded: boolean; age: number }>(
      AB,
      `SELECT predicate, weight, faded, extract(epoch FROM now() - last_decayed)::float8 AS age FROM claim WHERE scopes = $1::uuid[] ORDER BY predicate`,
      [AB],
    )
    assert.equal(ab.length, 2)
    const [design, write] = ab
    assert.ok(Math.abs(write.weight - 0.5) < 1e-4, `90 days: weight ${write.weight}`)
    assert.equal(write.faded, false)
    assert.ok(Math.abs(design.weight - 1 / 32) < 1e-4, `450 days: weight ${design.weight}`)
    assert.equal(design.faded, true, 'below the floor (0.05): faded, and still there')
    assert.ok(write.age < 60, 'last_decayed moved to now')
    const [own] = await rows<{ weight: number }>([A], 'SELECT weight FROM claim')
    assert.equal(own.weight, 1, "the {A,B} pass never decays {A}'s claim")
    // A second run right after changes (almost) nothing: decay counts from the last decay.
    await runScoped(DecayJob, app.scoped, settings, AB)
    const [again] = await rows<{ weight: number }>(AB, "SELECT weight FROM claim WHERE predicate = 'write' AND scopes = $1::uuid[]", [AB])
    assert.ok(Math.abs(again.weight - 0.5) < 1e-4)
  })

  it('decays every live claim of the set exactly once, a batch a transaction, and leaves faded claims as they are', async () => {
    const S = [A, C]
    await asSet(app.scoped, S, async (q) => {
      const { rows } = await q.query<{ id: string }>(
        "INSERT INTO entity (scopes, name, normalized_name, kind) VALUES ($1::uuid[], 'Grace Hopper', 'grace hopper', 'person') RETURNING id::text",
        [S],
      )
      await q.query(
        `INSERT INTO claim (scopes, subject_id, predicate, object_text, object_key, weight, last_decayed, faded)
         SELECT $1::uuid[], $2::uuid, 'write', 'program ' || i, 'text:program ' || i, CASE WHEN i = 0 THEN 0.01 ELSE 1 END,
                now() - interval '90 days', i = 0
           FROM generate_series(0, 7) i`,
        [S, rows[0].id],
      )
    })
    await runScoped(DecayJob, app.scoped, graphSettings({ AIZK_DECAY_BATCH: '2' }), S)
    const claims = await rows<{ object_text: string; weight: number; faded: boolean; age: number; tx: string }>(
      S,
      `SELECT object_text, weight, faded, extract(epoch FROM now() - last_decayed)::float8 AS age, xmin::text AS tx
         FROM claim WHERE scopes = $1::uuid[] ORDER BY object_text`,
      [S],
    )
    const [stale, ...live] = claims
    assert.equal(stale.object_text, 'program 0')
    assert.deepEqual([stale.weight, stale.faded], [0.01, true], 'a faded claim is skipped')
    assert.ok(stale.age > 89 * 86400, 'and its last decay stays where it was')
    assert.equal(live.length, 7)
    for (const c of live) assert.ok(Math.abs(c.weight - 0.5) < 1e-4 && !c.faded && c.age < 60, `${c.object_text}: weight ${c.weight}, age ${c.age}`)
    assert.equal(new Set(live.map((c) => c.tx)).size, 4, 'seven claims in batches of two: four transactions')
  })
})

describe('dedup', () => {
  it('merges "Ada Lovelace" and "ada  lovelace" and near names of one kind, repointing claims, mentions and profiles, within the set only', async () => {
    const S = [B, C]
    const [c1, c2, c3] = await addDocument(
      app.scoped,
      S,
      'dedup',
      `${'Ada Lovelace wrote the first program. '.repeat(60)}\n\n${'ada  lovelace worked with Charles Babbage. '.repeat(60)}\n\n${'Charles Babbages designed engines. '.repeat(60)}`,
    )
    await project(S, c1, ada('Ada Lovelace', 'person'))
    await project(
      S,
      c2,
      ada('ada  lovelace', 'concept', [{ subject: 'ada  lovelace', predicate: 'work with', object: 'Charles Babbage', objectIsEntity: true }]),
    )
    await project(S, c3, {
      // Trigram-similar, but not one name: never merged.
      entities: [
        { name: 'Charles Babbages', kind: 'person' },
        { name: "Charles Babbage's", kind: 'organisation' },
        { name: 'Oldstable', kind: 'concept' },
        { name: 'Oldoldstable', kind: 'concept' },
      ],
      claims: [{ subject: 'Charles Babbages', predicate: 'design', object: 'engines', objectIsEntity: false }],
    })
    // The same names in {B}: a different set, never merged with {B,C}'s.
    const [b1, b2] = await addDocument(
      app.scoped,
      [B],
      'dedup',
      `${'Ada Lovelace wrote the first program. '.repeat(60)}\n\n${'ADA LOVELACE wrote it. '.repeat(60)}`,
    )
    await project([B], b1, ada('Ada Lovelace', 'person'))
    await project([B], b2, ada('ADA LOVELACE', 'concept'))
    await runScoped(ProfileProjectionJob, app.scoped, settings, S)

    await runScoped(DedupJob, app.scoped, settings, S)
    const live = await rows<{ id: string; name: string; kind: string }>(
      S,
      'SELECT id::text, name, kind FROM entity WHERE scopes = $1::uuid[] AND merged_into IS NULL ORDER BY name',
      [S],
    )
    assert.deepEqual(
      live.map((e) => [e.name, e.kind]),
      [
        ['Ada Lovelace', 'person'],
        ['Charles Babbage', 'person'],
        ["Charles Babbage's", 'organisation'],
        ['Oldoldstable', 'concept'],
        ['Oldstable', 'concept'],
      ],
    )
    const keeper = live[0].id
    const merged = await rows<{ name: string; merged_into: string }>(
      S,
      'SELECT name, merged_into::text FROM entity WHERE merged_into IS NOT NULL ORDER BY name',
    )
    assert.deepEqual(merged.map((m) => m.name).sort(), ['Charles Babbages', 'ada lovelace'])
    assert.equal(merged.find((m) => m.name === 'ada lovelace')?.merged_into, keeper)
    const claims = await rows<{ predicate: string; subject_id: string; object_id: string | null; weight: number; sources: number }>(
      S,
      `SELECT predicate, subject_id::text, object_id::text, weight, (SELECT count(*)::int FROM claim_source s WHERE s.claim_id = c.id) AS sources
         FROM claim c WHERE scopes = $1::uuid[] ORDER BY predicate`,
      [S],
    )
    assert.deepEqual(
      claims.map((c) => c.predicate),
      ['design', 'work with', 'write'],
    )
    const [design, workWith, write] = claims
    assert.equal(write.subject_id, keeper, 'the two "write" claims fold into the keeper')
    assert.ok(Math.abs(write.weight - 2) < 1e-6, `folded weight ${write.weight}`)
    assert.equal(write.sources, 2, 'both chunks still evidence it')
    assert.equal(workWith.subject_id, keeper)
    assert.equal(workWith.object_id, live[1].id)
    assert.equal(design.subject_id, live[1].id, 'the near name of one kind merged into Charles Babbage')
    const mentions = await rows<{ entity_id: string }>(S, 'SELECT DISTINCT entity_id::text FROM mention WHERE scopes = $1::uuid[]', [S])
    assert.ok(
      mentions.every((m) => live.some((e) => e.id === m.entity_id)),
      'every mention names a live entity',
    )
    const profiles = await rows<{ entity_id: string; dirty: boolean }>(
      S,
      'SELECT entity_id::text, dirty FROM profile WHERE scopes = $1::uuid[] ORDER BY entity_id',
      [S],
    )
    assert.deepEqual(new Set(profiles.map((p) => p.entity_id)), new Set(live.map((e) => e.id)), 'merged profiles are gone')
    assert.ok(profiles.find((p) => p.entity_id === keeper)?.dirty, "the keeper's profile is dirty again")

    const own = await rows<{ merged: number; live: number }>(
      [B],
      'SELECT count(*) FILTER (WHERE merged_into IS NOT NULL)::int AS merged, count(*) FILTER (WHERE merged_into IS NULL)::int AS live FROM entity',
    )
    assert.deepEqual(own, [{ merged: 0, live: 3 }], "{B}'s entities are untouched by the {B,C} pass")
    await runScoped(DedupJob, app.scoped, settings, [B])
    const after = await rows<{ n: number }>([B], "SELECT count(*)::int AS n FROM entity WHERE merged_into IS NULL AND normalized_name = 'ada lovelace'")
    assert.equal(after[0].n, 1, "{B}'s own pass merges its own pair")
  })
})

describe('profiles', () => {
  it('rebuilds dirty profiles of the set from the strongest live claims, leaving other sets dirty', async () => {
    const S = [A, C]
    // Two documents: a second chunk of one document would not reinforce (evidence counts sources).
    const [c1] = await addDocument(
      app.scoped,
      S,
      'profile',
      `${'Guido van Rossum created Python. '.repeat(60)}\n\n${'Guido van Rossum worked at CNRI. '.repeat(60)}`,
    )
    const [c2] = await addDocument(app.scoped, S, 'profile, again', 'Guido van Rossum created Python.')
    const guido: Extraction = {
      entities: [
        { name: 'Guido van Rossum', kind: 'person' },
        { name: 'Python', kind: 'product' },
      ],
      claims: [
        { subject: 'Guido van Rossum', predicate: 'create', object: 'Python', objectIsEntity: true },
        { subject: 'Guido van Rossum', predicate: 'work at', object: 'CNRI', objectIsEntity: false },
      ],
    }
    await project(S, c1, guido)
    await project(S, c2, { ...guido, claims: guido.claims.slice(0, 1) })
    const dirtyElsewhere = await rows<{ n: number }>([A], 'SELECT count(*)::int AS n FROM profile WHERE dirty')
    await runScoped(ProfileProjectionJob, app.scoped, settings, S)
    const profiles = await rows<{ name: string; summary: string; claim_ids: string[]; dirty: boolean }>(
      S,
      'SELECT e.name, p.summary, p.claim_ids::text[] AS claim_ids, p.dirty FROM profile p JOIN entity e ON e.id = p.entity_id WHERE p.scopes = $1::uuid[] ORDER BY e.name',
      [S],
    )
    assert.equal(profiles.length, 2)
    assert.ok(profiles.every((p) => !p.dirty))
    const [g, py] = profiles
    assert.equal(g.summary, 'Guido van Rossum creates Python. Guido van Rossum works at CNRI. Mentioned twice.', 'sentences, strongest claim (weight 2) first')
    assert.equal(g.claim_ids.length, 2)
    assert.match(py.summary, /^Guido van Rossum creates Python\. Mentioned (once|twice)\.$/)
    assert.deepEqual(await rows([A], 'SELECT count(*)::int AS n FROM profile WHERE dirty'), dirtyElsewhere, "{A}'s dirty profiles wait for {A}'s own pass")
  })
})

describe('session promotion', () => {
  it('promotes each idle session once, as one document per part, chunked and enqueued for projection', async () => {
    const S = [B, C]
    const old = new Date(Date.now() - 2 * 3600_000)
    const write = (scopes: string[], sessionId: string, content: string, created?: Date) =>
      asSet(app.scoped, scopes, (q) => writeSessionItem(q, scopes, { sessionId, role: 'user', content, created }, settings))
    const first = await write(S, 's1', 'Ada Lovelace wrote the first program.', old)
    await write(S, 's1', 'Charles Babbage designed the Analytical Engine.', new Date(old.getTime() + 1000))
    await write(S, 's2', 'Still talking.', new Date())
    await write([B], 's1', 'A session of another set with the same id.', old)
    assert.ok(first.promotionJobId, 'the write enqueues its promotion pass in the same transaction')
    const [delayed] = (
      await db.pool.query<{ later: boolean }>("SELECT execute_after > now() + interval '29 minutes' AS later FROM pgqueuer WHERE id = $1", [
        first.promotionJobId,
      ])
    ).rows
    assert.equal(delayed.later, true, 'to run when the session could first be idle')

    await runScoped(SessionPromoteJob, app.scoped, settings, S)
    await runScoped(SessionPromoteJob, app.scoped, settings, S)
    const docs = await rows<{ id: string; session_id: string; part: number; body: string; title: string }>(
      S,
      'SELECT id::text, session_id, part, body, title FROM document WHERE scopes = $1::uuid[] AND session_id IS NOT NULL ORDER BY part',
      [S],
    )
    assert.deepEqual(
      docs.map((d) => [d.session_id, d.part, d.title]),
      [['s1', 1, 'Session s1']],
      'promoted once, however often the pass runs; s2 is not idle',
    )
    assert.match(docs[0].body, /Ada Lovelace wrote the first program\.[\s\S]*Charles Babbage designed/)
    const chunks = (await db.pool.query<{ id: string }>('SELECT id::text FROM chunk WHERE document_id = $1', [docs[0].id])).rows
    assert.ok(chunks.length >= 1)
    const jobs = await db.pool.query("SELECT 1 FROM pgqueuer WHERE entrypoint = 'aizk_build_graph_chunk' AND dedupe_key = ANY($1::text[])", [
      chunks.map((c) => c.id),
    ])
    assert.equal(jobs.rowCount, chunks.length, 'one projection job per chunk, in the same transaction')
    const items = await rows<{ session_id: string; promoted: boolean; document_id: string | null }>(
      S,
      'SELECT session_id, promoted_at IS NOT NULL AS promoted, document_id::text FROM session_item WHERE scopes = $1::uuid[] ORDER BY created',
      [S],
    )
    assert.deepEqual(
      items.map((i) => [i.session_id, i.promoted, i.document_id]),
      [
        ['s1', true, docs[0].id],
        ['s1', true, docs[0].id],
        ['s2', false, null],
      ],
    )

    // Items added to s1 later promote as its next part, alone.
    await write(S, 's1', 'Later, Ada Lovelace described loops.', new Date(Date.now() - 3600_000))
    await runScoped(SessionPromoteJob, app.scoped, settings, S)
    const parts = await rows<{ part: number; body: string }>(
      S,
      "SELECT part, body FROM document WHERE session_id = 's1' AND scopes = $1::uuid[] ORDER BY part",
      [S],
    )
    assert.deepEqual(
      parts.map((p) => p.part),
      [1, 2],
    )
    assert.doesNotMatch(parts[1].body, /first program/)
    assert.deepEqual(
      await rows([B], 'SELECT count(*)::int AS n FROM document WHERE session_id IS NOT NULL'),
      [{ n: 0 }],
      "{B}'s session waits for {B}'s own pass",
    )
  })
})
