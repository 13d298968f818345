/**
 * The weekly passes over real prose (the Python documentation) in {A}, {B} and {A,B}, each run
 * through its real handler with the app login's pool, so every statement goes through the app
 * role under row security: communities by level, the growth gate's skip and rebuild, profile
 * refresh, insights once per evidence (a planted contradiction with both claims), and no row of
 * one set readable by, or written for, another.
 */
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { closeExtractionPool } from '../../src/graph/extract/extract-pool.js'
import { CommunitiesJob, InsightJob, ProfileRefreshJob } from '../../src/jobs/inventory/index.js'
import type { ScopedScheduledJob } from '../../src/jobs/scheduled-job.js'
import { memoryBacklog } from '../../src/scope/memory-backlog.js'
import { rosterCounts } from '../../src/scope/roster-counts.js'
import { A, B, fileAppLogin, identity } from '../support/app-login.js'
import { fileDatabase } from '../support/db.js'
import { corpusText } from '../support/graph/corpus.js'
import { addDocument, asSet, countVisible, graphSettings, jobContext, projectAs } from '../support/graph/graph.js'

const AB = [A, B]
const SETS = [[A], [B], AB]
const TABLES = ['community', 'community_member', 'insight', 'insight_evidence', 'entity_trend']
const PROSE = ['tutorial/appetite.rst.txt', 'faq/general.rst.txt', 'whatsnew/2.0.rst.txt']
const PEOPLE = `Guido van Rossum created Python. Guido van Rossum joined Google. Guido van Rossum joined Dropbox.
Tim Peters wrote Timsort. Tim Peters knows Guido van Rossum. Barry Warsaw knows Guido van Rossum. Barry Warsaw knows Tim Peters.
Ada Lovelace knew Charles Babbage. Charles Babbage designed the Analytical Engine. Ada Lovelace described the Analytical Engine.
Mary Somerville taught Ada Lovelace. Mary Somerville knew Charles Babbage.`

const db = await fileDatabase()
const app = await fileAppLogin(db)
/** What the passes' handlers get as the worker's settings. */
const settings = graphSettings({ AIZK_COMMUNITIES_GROWTH_THRESHOLD: '3', AIZK_INSIGHT_TREND_RATIO: '1.5' })

async function run(Job: typeof CommunitiesJob | typeof InsightJob | typeof ProfileRefreshJob, scopes: string[]): Promise<Record<string, unknown>> {
  let detail: Record<string, unknown> = {}
  const ctx = { ...jobContext(app.scoped, Job.entrypoint, settings), report: (d: Record<string, unknown>) => (detail = { ...detail, ...d }) }
  await (new Job() as ScopedScheduledJob).handle({ scopes }, ctx)
  return detail
}

async function write(scopes: string[], title: string, body: string): Promise<void> {
  for (const chunk of await addDocument(app.scoped, scopes, title, body)) await projectAs(app.scoped, chunk, scopes)
}

async function rows<T = Record<string, unknown>>(scopes: string[], sql: string, params: unknown[] = []): Promise<T[]> {
  return asSet(app.scoped, scopes, async (q) => (await q.query(sql, params)).rows as T[])
}

before(async () => {
  for (const [i, set] of SETS.entries()) {
    await write(set, PROSE[i], corpusText(PROSE[i]).slice(0, 6000))
    await write(set, 'people', PEOPLE)
  }
  // The planted contradiction, in two documents of {A} only.
  await write([A], 'birth one', 'Ada Lovelace was born in London.')
  await write([A], 'birth two', 'Ada Lovelace was born in Paris.')
  // Two values of a predicate that holds several at once: a list, not a contradiction.
  await write([A], 'git one', 'Git is a tool.')
  await write([A], 'git two', 'Git is a version control system.')
})
db.beforeDrop(async () => {
  await closeExtractionPool()
})

describe('weekly graph passes per scope set', () => {
  it('builds hierarchical communities per set, each of its own entities only', async () => {
    for (const set of SETS) {
      const detail = await run(CommunitiesJob, set)
      assert.equal(detail.gate, 'ran')
      assert.ok(Number(detail.communities) > 0, `communities for {${set}}`)
    }
    for (const set of SETS) {
      const literal = `{${set.join(',')}}`
      const levels = await rows<{ level: number; n: number }>(
        set,
        'SELECT level, count(*)::int AS n FROM community WHERE scopes = $1::uuid[] GROUP BY level ORDER BY level',
        [set],
      )
      assert.ok(levels.length >= 1 && levels[0].level === 0)
      // A level never has more communities than the one below it, and every child has its parent one level up.
      for (let i = 1; i < levels.length; i++) assert.ok(levels[i].n <= levels[i - 1].n)
      const orphans = await rows<{ n: number }>(
        set,
        `SELECT count(*)::int AS n FROM community c LEFT JOIN community p ON p.id = c.parent_id
          WHERE c.scopes = $1::uuid[] AND c.level < (SELECT max(level) FROM community WHERE scopes = $1::uuid[]) AND (p.id IS NULL OR p.level <> c.level + 1)`,
        [set],
      )
      assert.equal(orphans[0].n, 0)
      // Every level covers the same entities: level 0 holds the member rows, each level above sums them.
      const cover = await rows<{ level: number; size: number; members: number }>(
        set,
        `SELECT level, sum(size)::int AS size, (SELECT count(*)::int FROM community_member WHERE scopes = $1::uuid[]) AS members
           FROM community WHERE scopes = $1::uuid[] GROUP BY level`,
        [set],
      )
      assert.ok(
        cover.every((c) => c.size === c.members),
        JSON.stringify(cover),
      )
      // Members are entities of the same set: never across sets.
      const foreign = await rows<{ n: number }>(
        set,
        'SELECT count(*)::int AS n FROM community_member m JOIN entity e ON e.id = m.entity_id WHERE e.scopes <> m.scopes',
      )
      assert.equal(foreign[0].n, 0)
      assert.equal(await countVisible(app.scoped, set, 'community', `NOT (scopes <@ '${literal}')`), 0)
    }
    const guido = await rows<{ title: string; members: string[] }>(
      [A],
      `SELECT c.title, array_agg(e.name ORDER BY e.name) AS members FROM community c JOIN community_member m ON m.community_id = c.id
         JOIN entity e ON e.id = m.entity_id WHERE c.scopes = $1::uuid[] AND c.level = 0 GROUP BY c.id
        HAVING bool_or(e.normalized_name = 'tim peters')`,
      [[A]],
    )
    assert.equal(guido.length, 1)
    assert.ok(guido[0].members.includes('Guido van Rossum') && guido[0].members.includes('Barry Warsaw'), JSON.stringify(guido))
  })

  it('skips a rebuild without new claims, and rebuilds once enough arrived', async () => {
    const before = await rows<{ id: string }>([B], 'SELECT id::text FROM community WHERE scopes = $1::uuid[] ORDER BY id', [[B]])
    const skipped = await run(CommunitiesJob, [B])
    assert.equal(skipped.gate, 'skipped')
    assert.equal(skipped.sinceLastBuild, 0)
    assert.deepEqual(await rows([B], 'SELECT id::text FROM community WHERE scopes = $1::uuid[] ORDER BY id', [[B]]), before)
    const backlog = await memoryBacklog(db.pool, identity)
    const gate = backlog.gates.find((g) => g.job === 'communities')
    assert.equal(gate?.last?.decision, 'skipped')
    assert.deepEqual(gate?.last?.scopes, [B])
    assert.equal(gate?.ran, 2)
    assert.equal(gate?.skipped, 1)

    await write(
      [B],
      'more people',
      // "Harvard Mark I." last: before a name its "I." reads as an initial ("Harvard Mark I Grace Hopper").
      'Grace Hopper wrote COBOL. Grace Hopper joined Harvard. Grace Hopper knew Howard Aiken. Howard Aiken joined Harvard. Howard Aiken built Harvard Mark I.',
    )
    const rebuilt = await run(CommunitiesJob, [B])
    assert.equal(rebuilt.gate, 'ran')
    const after = await rows<{ id: string; novelty: string }>([B], 'SELECT id::text, novelty FROM community WHERE scopes = $1::uuid[]', [[B]])
    assert.ok(
      after.every((c) => !before.some((b) => b.id === c.id)),
      'the old build was replaced whole',
    )
    assert.ok(
      after.some((c) => c.novelty === 'kept'),
      'unchanged communities keep their lineage',
    )
    assert.ok(
      after.some((c) => c.novelty === 'new'),
      'the new people form a new community',
    )
    // The other sets' communities are untouched by {B}'s rebuild.
    assert.ok((await countVisible(app.scoped, [A], 'community', `scopes = '{${A}}'`)) > 0)
  })

  it('rebuilds every profile of the set, not only dirty ones', async () => {
    await asSet(app.scoped, [A], (q) => q.query("UPDATE profile SET summary = 'stale', dirty = false WHERE scopes = $1::uuid[]", [[A]]))
    await asSet(app.scoped, [A], (q) =>
      q.query('DELETE FROM profile WHERE entity_id = (SELECT id FROM entity WHERE scopes = $1::uuid[] AND normalized_name = $2)', [[A], 'tim peters']),
    )
    const detail = await run(ProfileRefreshJob, [A])
    assert.equal(detail.created, 1, 'the missing profile is created again')
    const stale = await rows<{ n: number }>([A], "SELECT count(*)::int AS n FROM profile WHERE scopes = $1::uuid[] AND (summary = 'stale' OR dirty)", [[A]])
    assert.equal(stale[0].n, 0)
    const tim = await rows<{ summary: string }>(
      [A],
      "SELECT p.summary FROM profile p JOIN entity e ON e.id = p.entity_id WHERE e.normalized_name = 'tim peters' AND p.scopes = $1::uuid[]",
      [[A]],
    )
    assert.match(tim[0].summary, /Timsort/)
    // {B}'s profiles were not touched by {A}'s pass.
    assert.equal(await countVisible(app.scoped, [B], 'profile', "summary = 'stale'"), 0)
  })

  it('finds the planted contradiction with both claims as evidence, once', async () => {
    const first = await run(InsightJob, [A])
    assert.ok(Number(first.written) > 0)
    const found = await rows<{ id: string; title: string; evidence: string[] }>(
      [A],
      `SELECT i.id::text, i.title, array_agg(s.name || ' ' || c.predicate || ' ' || coalesce(o.name, c.object_text) ORDER BY o.name) AS evidence
         FROM insight i JOIN insight_evidence ev ON ev.insight_id = i.id JOIN claim c ON c.id = ev.claim_id
         JOIN entity s ON s.id = c.subject_id LEFT JOIN entity o ON o.id = c.object_id
        WHERE i.kind = 'contradiction' AND s.normalized_name = 'ada lovelace' AND c.predicate = 'be born in' GROUP BY i.id`,
    )
    assert.equal(found.length, 1, JSON.stringify(found))
    assert.equal(found[0].evidence.length, 2)
    assert.match(found[0].evidence.join(' | '), /London/)
    assert.match(found[0].evidence.join(' | '), /Paris/)
    const git = await rows<{ objects: number }>(
      [A],
      "SELECT count(DISTINCT c.object_key)::int AS objects FROM claim c JOIN entity s ON s.id = c.subject_id WHERE s.normalized_name = 'git' AND c.predicate = 'be'",
    )
    assert.equal(git[0].objects, 2, 'both values of "Git is" were projected')
    assert.equal(
      await countVisible(app.scoped, [A], 'insight', "kind = 'contradiction' AND title LIKE 'Git %'"),
      0,
      'a multi-valued predicate is no contradiction',
    )
    // The same evidence is never written twice.
    const again = await run(InsightJob, [A])
    assert.equal(again.written, 0)
    // {B} and {A,B} never see {A}'s contradiction, and their own passes find none of it.
    for (const set of [[B], AB]) await run(InsightJob, set)
    assert.equal(await countVisible(app.scoped, [B], 'insight', "title LIKE '%Paris%'"), 0)
    assert.equal(await countVisible(app.scoped, AB, 'insight', `title LIKE '%Paris%' AND scopes = '{${A},${B}}'`), 0)
  })

  it('reports a rising entity and the new community, each once', async () => {
    await run(InsightJob, [B])
    for (let i = 0; i < 3; i++)
      await write([B], `hopper ${i}`, `Grace Hopper wrote COBOL. Grace Hopper joined Harvard. Grace Hopper knew Howard Aiken ${i === 0 ? '' : 'well'}.`)
    await write([B], 'hopper more', 'Grace Hopper invented the compiler. Grace Hopper joined the Navy.')
    await run(InsightJob, [B])
    const insights = await rows<{ kind: string; title: string }>([B], 'SELECT kind, title FROM insight WHERE scopes = $1::uuid[] ORDER BY kind, title', [[B]])
    assert.ok(
      insights.some((i) => i.kind === 'rising_entity' && /Grace Hopper/.test(i.title)),
      JSON.stringify(insights),
    )
    assert.ok(
      insights.some((i) => i.kind === 'new_community'),
      JSON.stringify(insights),
    )
    const twice = await rows<{ n: number }>([B], 'SELECT count(*)::int AS n FROM insight GROUP BY kind, evidence_key HAVING count(*) > 1')
    assert.equal(twice.length, 0)
  })

  it('keeps every set to itself under row security, as the app role', async () => {
    for (const single of [[A], [B]]) {
      for (const table of TABLES)
        assert.equal(await countVisible(app.scoped, single, table, `scopes = '{${A},${B}}'`), 0, `{A,B} ${table} unreadable by one scope`)
    }
    // A pass for {A,B} cannot write a row readable by {A} alone.
    await assert.rejects(
      asSet(app.scoped, AB, (q) =>
        q.query(`INSERT INTO community (scopes, level, title, summary, size, lineage, novelty) VALUES ($1::uuid[], 0, 't', 's', 1, gen_random_uuid(), 'new')`, [
          [A],
        ]),
      ),
      /row-level security/,
    )
    await assert.rejects(
      asSet(app.scoped, AB, (q) => q.query(`INSERT INTO insight (scopes, kind, title, evidence_key) VALUES ($1::uuid[], 'contradiction', 't', 'k')`, [[A]])),
      /row-level security/,
    )
    // {A,B}'s pass sees {A}'s rows but deletes only its own when it rebuilds.
    const aBefore = await countVisible(app.scoped, [A], 'community')
    await asSet(app.scoped, AB, (q) => q.query('DELETE FROM community'))
    assert.equal(await countVisible(app.scoped, [A], 'community'), aBefore)
  })

  it('roster counts what each set holds', async () => {
    const sets = await rosterCounts(db.pool, identity)
    assert.deepEqual(
      sets.map((s) => s.scopes),
      [[A], [A, B], [B]],
    )
    for (const s of sets) {
      assert.ok(s.documents > 0 && s.entities > 0 && s.claims > 0, JSON.stringify(s))
      assert.equal(s.chunksPendingProjection, 0)
    }
    const a = sets.find((s) => s.scopes.join() === A)
    assert.ok(a && a.communities > 0 && a.insights > 0)
    const own = await rows<{ n: number }>([A], 'SELECT count(*)::int AS n FROM insight WHERE scopes = $1::uuid[]', [[A]])
    assert.equal(a?.insights, own[0].n)
  })
})
