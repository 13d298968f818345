/**
 * The weekly passes end to end through a real `aizk worker` with its crons sped up to seconds:
 * real prose (the Python documentation) ingested into {A}, {B} and {A,B}, converted, embedded
 * through a local embeddings stand-in, projected; then communities (behind the growth gate),
 * RAPTOR (queued by the community pass), profile refresh and insights per set. Checked as the
 * app role: every set has its own communities, trees, profiles and insights, and nothing crosses
 * sets; the gate skips once nothing grows and rebuilds when enough arrives; the planted contradiction is an insight with both claims; the
 * worker's JSON lines name each fan-out job's set; roster, status and graph show it all.
 */
import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { before, describe, it } from 'node:test'
import { writeDocument } from '../../src/graph/project/write-memory.js'
import { A, B, fileAppLogin } from '../support/app-login.js'
import { runCli } from '../support/cli.js'
import { fileDatabase } from '../support/db.js'
import { corpusText } from '../support/graph/corpus.js'
import { asSet, countVisible, graphSettings } from '../support/graph/graph.js'
import { type StandIn, startStandIn } from '../support/graph/stand-in.js'
import { waitFor } from '../support/wait-for.js'
import { startWorker, type WorkerWithLines as WorkerProcess } from '../support/worker-process.js'

const AB = [A, B]
const SETS = [[A], [B], AB]
const FILES = ['tutorial/appetite.rst.txt', 'faq/general.rst.txt', 'tutorial/interpreter.rst.txt']
const PEOPLE = `Guido van Rossum created Python. Guido van Rossum joined Google. Tim Peters wrote Timsort. Tim Peters knows Guido van Rossum.
Barry Warsaw knows Guido van Rossum. Barry Warsaw knows Tim Peters. Ada Lovelace knew Charles Babbage. Charles Babbage designed the Analytical Engine.
Ada Lovelace described the Analytical Engine. Mary Somerville taught Ada Lovelace. Mary Somerville knew Charles Babbage.`
const TABLES = ['community', 'community_member', 'raptor_node', 'insight', 'insight_evidence', 'profile']
const literal = (set: string[]) => `{${set.join(',')}}`
const flags = (set: string[]) => set.flatMap((s) => ['--scope', s])

const db = await fileDatabase()
const app = await fileAppLogin(db)
let api: StandIn
let dir: string
let worker: WorkerProcess | undefined

before(async () => {
  api = await startStandIn()
  dir = await mkdtemp(path.join(os.tmpdir(), 'aizk-maint-e2e-'))
})
db.beforeDrop(async () => {
  await worker?.stop()
  await api.close()
  await rm(dir, { recursive: true, force: true })
})

type Line = Record<string, unknown> & { event: string; entrypoint?: string; scopes?: string[]; detail?: Record<string, unknown> }
const lines = () => (worker?.lines ?? []) as Line[]
const completed = (entrypoint: string, set: string[]) =>
  lines().filter((l) => l.event === 'job:completed' && l.entrypoint === entrypoint && l.scopes?.join() === set.join())

async function add(set: string[], title: string, body: string): Promise<void> {
  await asSet(db.pool, set, (tx) => writeDocument(tx, set, { title, body }, graphSettings()))
}

describe('weekly graph passes end to end', () => {
  it('builds communities, RAPTOR trees, profiles and insights per set through a real worker, never across sets', async () => {
    const env = { AIZK_DATABASE_URL: db.url, AIZK_EMBEDDINGS_URL: `${api.url}/v1`, AIZK_RAPTOR_ENABLED: 'true' }
    for (const [i, file] of FILES.entries()) await writeFile(path.join(dir, `doc${i}.txt`), corpusText(file).slice(0, 4000))
    for (const [i, set] of SETS.entries()) {
      const res = await runCli(['ingest', path.join(dir, `doc${i}.txt`), ...flags(set), '--json'], { env })
      assert.equal(res.code, 0, res.stderr)
      await add(set, 'people', PEOPLE)
    }
    await add([A], 'birth one', 'Ada Lovelace was born in London.')
    await add([A], 'birth two', 'Ada Lovelace was born in Paris.')
    // Every set gets a real contradiction of its own (only single-valued predicates make one), so
    // each has an insight to wait for.
    await add([B], 'birth three', 'Grace Hopper was born in New York.')
    await add([B], 'birth four', 'Grace Hopper was born in Boston.')
    await add(AB, 'birth five', 'Alan Turing was born in Maida Vale.')
    await add(AB, 'birth six', 'Alan Turing was born in Wilmslow.')

    worker = startWorker({
      ...env,
      AIZK_CHUNK_MAX_CHARS: '1200',
      AIZK_RAPTOR_CLUSTER_SIZE: '3',
      AIZK_COMMUNITIES_GROWTH_THRESHOLD: '5',
      AIZK_ARTIFACT_DISPATCH_CRON: '*/2 * * * * *',
      AIZK_CHUNK_DISPATCH_CRON: '*/2 * * * * *',
      AIZK_PROFILE_PROJECTION_CRON: '*/2 * * * * *',
      AIZK_COMMUNITIES_CRON: '*/3 * * * * *',
      AIZK_PROFILE_REFRESH_CRON: '*/5 * * * * *',
      AIZK_INSIGHT_CRON: '*/3 * * * * *',
      AIZK_SESSION_PROMOTE_ENABLED: 'false',
      AIZK_DECAY_ENABLED: 'false',
      AIZK_DEDUP_ENABLED: 'false',
      AIZK_CHUNK_RECOVERY_ENABLED: 'false',
      AIZK_CLEANUP_ENABLED: 'false',
      AIZK_ARTIFACT_INTEGRITY_ENABLED: 'false',
    })
    const count = async (sql: string) => Number((await db.pool.query(sql)).rows[0].n)
    let waiting = ''
    const not = (why: string) => {
      waiting = why
      return false
    }
    await waitFor(
      'every set projected, clustered, summarised by RAPTOR, profiled, with insights, and its gate skipping',
      async () => {
        if ((await count("select count(*) as n from artifact where conversion_status <> 'converted'")) > 0) return not('conversion')
        if ((await count("select count(*) as n from chunk where projection_status <> 'projected' or (artifact_id is not null and embedding is null)")) > 0)
          return not('projection')
        for (const set of SETS) {
          const where = `scopes = '${literal(set)}'`
          for (const table of ['community', 'raptor_node', 'insight'])
            if ((await count(`select count(*) as n from ${table} where ${where}`)) === 0) return not(`${table} of ${literal(set)}`)
          if (!completed('aizk_task_communities', set).some((l) => l.detail?.gate === 'skipped')) return not(`a skip of ${literal(set)}`)
          if (!completed('aizk_task_profile_refresh', set).length) return not(`profile refresh of ${literal(set)}`)
        }
        return (await count('select count(*) as n from profile where dirty')) === 0 || not('dirty profiles')
      },
      240_000,
    ).catch((err) => {
      const held = lines()
        .filter((l) => l.event === 'job:held' || l.event === 'job:retried' || (l.event === 'job:completed' && l.entrypoint === 'aizk_task_insight'))
        .slice(-8)
      throw new Error(`${(err as Error).message}: still waiting for ${waiting}; ${JSON.stringify(held)}; stderr: ${worker?.stderr().slice(-2000)}`)
    })
    assert.deepEqual((await db.pool.query("select entrypoint from pgqueuer where status = 'failed'")).rows, [], 'nothing held')

    // Every fan-out job's events name its set; each set's pass ran under its own set.
    for (const ep of ['aizk_task_communities', 'aizk_task_raptor', 'aizk_task_insight', 'aizk_task_profile_refresh']) {
      const picked = lines().filter((l) => l.event === 'job:picked' && l.entrypoint === ep)
      assert.ok(picked.length >= 3 && picked.every((l) => Array.isArray(l.scopes)), `${ep} picks name their set`)
      assert.deepEqual([...new Set(picked.map((l) => l.scopes?.join()))].sort(), SETS.map((s) => s.join()).sort())
    }
    // A skip means the set grew by no more than the threshold (5) since its last build (the gate
    // rebuilds past it, growth-gate.ts). Not always 0:
    // a build can run while the set's last chunks are still being projected.
    const skips = completed('aizk_task_communities', [B]).filter((l) => l.detail?.gate === 'skipped')
    assert.ok(skips.length > 0)
    for (const skip of skips) {
      const since = Number(skip.detail?.sinceLastBuild)
      assert.ok(since >= 0 && since <= 5, `a skip of B reported ${since} new claims since its last build, threshold 5`)
    }

    // As the app role: each set's own rows, nothing of a wider set, nothing pointing across sets.
    for (const set of SETS) {
      for (const table of TABLES) {
        assert.ok((await countVisible(app.scoped, set, table, `scopes = '${literal(set)}'`)) > 0, `${literal(set)} has ${table} rows`)
        assert.equal(await countVisible(app.scoped, set, table, `NOT (scopes <@ '${literal(set)}')`), 0)
      }
    }
    for (const single of [[A], [B]]) for (const table of TABLES) assert.equal(await countVisible(app.scoped, single, table, `scopes = '${literal(AB)}'`), 0)
    for (const set of SETS) {
      const written = await countVisible(app.scoped, set, 'profile', `scopes = '${literal(set)}' AND summary IS NOT NULL AND refreshed_at IS NOT NULL`)
      assert.ok(written > 0, `${literal(set)} has written profiles`)
    }
    const crossings = await count(`select
      (select count(*) from community_member m join entity e on e.id = m.entity_id where e.scopes <> m.scopes) +
      (select count(*) from community_member m join community c on c.id = m.community_id where c.scopes <> m.scopes) +
      (select count(*) from profile p join entity e on e.id = p.entity_id where e.scopes <> p.scopes) +
      (select count(*) from insight_evidence v join claim c on c.id = v.claim_id where c.scopes <> v.scopes) +
      (select count(*) from raptor_node r join chunk c on c.id = any(r.child_chunk_ids) where c.scopes <> r.scopes) as n`)
    assert.equal(crossings, 0)

    // The planted contradiction: one insight of {A} with both claims as its evidence.
    const contradiction = await asSet(
      app.scoped,
      [A],
      async (q) =>
        (
          await q.query<{ objects: string[] }>(
            `select array_agg(o.name order by o.name) as objects from insight i join insight_evidence v on v.insight_id = i.id
             join claim c on c.id = v.claim_id join entity o on o.id = c.object_id
            where i.kind = 'contradiction' and c.predicate = 'be born in' group by i.id`,
          )
        ).rows,
    )
    assert.deepEqual(
      contradiction.map((r) => r.objects.join(' / ')),
      ['London / Paris'],
    )
    assert.equal(await countVisible(app.scoped, AB, 'insight', `kind = 'contradiction' and title like '%Paris%'`), 1, 'only {A}’s, seen from {A,B}')

    // Enough new claims in {B}: its next community pass rebuilds, and queues RAPTOR again.
    const ranBefore = completed('aizk_task_communities', [B]).filter((l) => l.detail?.gate === 'ran').length
    await add(
      [B],
      'more people',
      // "Harvard Mark I." last: before a name its "I." reads as an initial ("Harvard Mark I Grace Hopper").
      'Grace Hopper wrote COBOL. Grace Hopper joined Harvard. Grace Hopper knew Howard Aiken. Howard Aiken joined Harvard. Grace Hopper invented the compiler. Grace Hopper joined the Navy. Howard Aiken built Harvard Mark I.',
    )
    const rebuilt = await waitFor(
      'a rebuild of {B}',
      async () =>
        completed('aizk_task_communities', [B])
          .filter((l) => l.detail?.gate === 'ran')
          .slice(ranBefore)[0],
    )
    assert.equal(rebuilt.detail?.raptorQueued, true)
    assert.ok(Number(rebuilt.detail?.claims) - Number(skips[skips.length - 1].detail?.claims) > 5)

    // What operators see.
    const cli = { AIZK_DATABASE_URL: db.url }
    const roster = JSON.parse((await runCli(['roster', '--json'], { env: cli })).stdout)
    for (const s of roster.sets) assert.ok(s.entities > 0 && s.claims > 0 && s.communities > 0 && s.insights > 0, JSON.stringify(s))
    const status = JSON.parse((await runCli(['status', '--json'], { env: cli })).stdout)
    assert.equal(typeof status.memory.chunksPendingProjection, 'number')
    assert.equal(typeof status.memory.dirtyProfiles, 'number')
    const gate = status.memory.gates.find((g: { job: string }) => g.job === 'communities')
    assert.ok(gate && gate.ran + gate.skipped === 3 && ['ran', 'skipped'].includes(gate.last.decision), JSON.stringify(gate))
    const frame = await runCli(['status', '--once'], { env: cli })
    assert.match(frame.stdout, /MEMORY chunks pending projection \d+ · dirty profiles \d+/)
    assert.match(frame.stdout, /gate communities: last (ran|skipped)/)
    const graph = JSON.parse((await runCli(['graph', ...flags([A]), '--json', '--limit', '500'], { env: cli })).stdout)
    assert.ok(graph.communities.length > 0 && graph.communities.every((c: { members: string[] }) => c.members.length > 0))
    assert.ok(graph.raptor.length > 0 && graph.raptor[0].level === 1)
    assert.ok(graph.insights.some((i: { kind: string; evidence: unknown[] }) => i.kind === 'contradiction' && i.evidence.length === 2))
    const text = await runCli(['graph', ...flags(AB)], { env: cli })
    assert.equal(text.code, 0, text.stderr)
    assert.match(text.stdout, /LEVEL\s+COMMUNITY\s+SIZE\s+MEMBERS/)
    assert.match(text.stdout, /RAPTOR LEVEL\s+NODES/)
    assert.match(text.stdout, /INSIGHT\s+FINDING\s+EVIDENCE/)

    assert.equal(await worker.stop(), 0)
    worker = undefined
  })
})
