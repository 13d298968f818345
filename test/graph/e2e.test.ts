/**
 * The memory graph end to end through real processes: real prose from the Python documentation
 * (Debian's python3.11-doc) ingested with `aizk ingest` into {A}, {B} and {A,B}, documents and
 * session items written through the library API, and a real `aizk worker` with its crons sped
 * up to seconds converting, projecting, promoting, profiling, decaying and deduplicating. Then,
 * as the app role: every set has entities, claims, mentions and profiles of its own, nothing
 * refers across sets, projection drained to zero, and the operator views show it.
 */
import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { before, describe, it } from 'node:test'
import { writeDocument, writeSessionItem } from '../../src/graph/project/write-memory.js'
import { A, B, fileAppLogin } from '../support/app-login.js'
import { runCli } from '../support/cli.js'
import { fileDatabase } from '../support/db.js'
import { corpusText } from '../support/graph/corpus.js'
import { asSet, countVisible, graphSettings } from '../support/graph/graph.js'
import { waitFor } from '../support/wait-for.js'
import { startWorker, type WorkerWithLines as WorkerProcess } from '../support/worker-process.js'

const SETS = [[A], [B], [A, B]]
const GRAPH_TABLES = ['entity', 'claim', 'claim_source', 'mention', 'profile']
const FILES = ['tutorial/appetite.rst.txt', 'faq/general.rst.txt', 'whatsnew/2.0.rst.txt']
const EVERY_2S = '*/2 * * * * *'

const db = await fileDatabase()
const app = await fileAppLogin(db)
let dir: string
let worker: WorkerProcess | undefined

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'aizk-graph-e2e-'))
})
db.beforeDrop(async () => {
  await worker?.stop()
  await rm(dir, { recursive: true, force: true })
})

async function q<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db.pool.query(sql, params)).rows as T[]
}

const scopeFlags = (set: string[]) => set.flatMap((s) => ['--scope', s])

describe('memory graph end to end', () => {
  it('projects real prose and sessions per scope set, never across sets, and drains projection to zero', async () => {
    const cliEnv = { AIZK_DATABASE_URL: db.url }
    // Real documentation, cut to a few chunks per file so the run stays short.
    for (const [i, file] of FILES.entries()) await writeFile(path.join(dir, `doc${i}.txt`), corpusText(file).slice(0, 5000))
    for (const [i, set] of SETS.entries()) {
      for (const name of [`doc${i}.txt`, `doc${(i + 1) % FILES.length}.txt`]) {
        const res = await runCli(['ingest', path.join(dir, name), ...scopeFlags(set), '--json'], { env: cliEnv })
        assert.equal(res.code, 0, res.stderr)
      }
    }
    const settings = graphSettings()
    const hourAgo = new Date(Date.now() - 3600_000)
    for (const set of SETS) {
      await asSet(db.pool, set, async (tx) => {
        await writeDocument(tx, set, { title: 'Glossary excerpt', body: corpusText('glossary.rst.txt').slice(0, 3000) }, settings)
        for (const [n, line] of ['Guido van Rossum created Python at CWI in the Netherlands.', 'The json module does not support comments.'].entries()) {
          await writeSessionItem(
            tx,
            set,
            { sessionId: `chat-${set.length}`, role: n ? 'assistant' : 'user', content: line, created: new Date(hourAgo.getTime() + n) },
            settings,
          )
        }
      })
    }
    // Projection jobs already wait for the library API's document: status shows the limit.
    const status = await runCli(['status', '--once'], { env: cliEnv })
    assert.equal(status.code, 0, status.stderr)
    assert.match(status.stdout, /aizk_build_graph_chunk\s+50\s+\S+\s+0\/4\s/)

    worker = startWorker({
      AIZK_DATABASE_URL: db.url,
      AIZK_CHUNK_MAX_CHARS: '1500',
      AIZK_SESSION_IDLE_MINUTES: '1',
      AIZK_ARTIFACT_DISPATCH_CRON: EVERY_2S,
      AIZK_CHUNK_DISPATCH_CRON: EVERY_2S,
      AIZK_PROFILE_PROJECTION_CRON: EVERY_2S,
      AIZK_SESSION_PROMOTE_CRON: EVERY_2S,
      AIZK_DECAY_CRON: EVERY_2S,
      AIZK_DEDUP_CRON: EVERY_2S,
      AIZK_CHUNK_RECOVERY_ENABLED: 'false',
      AIZK_CLEANUP_ENABLED: 'false',
      AIZK_ARTIFACT_INTEGRITY_ENABLED: 'false',
    })
    const ran = async (entrypoint: string) =>
      (await q<{ n: number }>("select count(*)::int as n from pgqueuer_log where entrypoint = $1 and status = 'successful'", [entrypoint]))[0].n
    await waitFor(
      'everything converted, promoted, projected and profiled',
      async () => {
        const [s] = await q<{ pending: number; jobs: number; unpromoted: number; dirty: number; converted: number }>(`select
          (select count(*)::int from chunk where projection_status <> 'projected') as pending,
          (select count(*)::int from pgqueuer where entrypoint = 'aizk_build_graph_chunk') as jobs,
          (select count(*)::int from session_item where promoted_at is null) as unpromoted,
          (select count(*)::int from profile where dirty) as dirty,
          (select count(*)::int from artifact where conversion_status = 'converted') as converted`)
        return s.converted === 6 && s.pending === 0 && s.jobs === 0 && s.unpromoted === 0 && s.dirty === 0 && (await ran('aizk_task_dedup')) >= 3
      },
      240_000,
    )
    assert.ok((await ran('aizk_task_decay')) >= 3, 'decay ran for every set')
    const held = await q("select entrypoint from pgqueuer where status = 'failed'")
    assert.deepEqual(held, [], 'nothing held')

    // Per set, as the app role: its own graph, and nothing of a wider set.
    for (const set of SETS) {
      const literal = `{${set.join(',')}}`
      for (const table of GRAPH_TABLES) {
        assert.ok((await countVisible(app.scoped, set, table, `scopes = '${literal}'`)) > 0, `${literal} has ${table} rows`)
        assert.equal(await countVisible(app.scoped, set, table, `NOT (scopes <@ '${literal}')`), 0)
      }
    }
    for (const single of [[A], [B]]) {
      for (const table of GRAPH_TABLES)
        assert.equal(await countVisible(app.scoped, single, table, `scopes = '{${A},${B}}'`), 0, `{A,B} ${table} unreadable by a single scope`)
    }
    // Nothing refers across sets: evidence, mentions, subjects, objects and profiles share their row's set.
    const crossings = await q<{ n: number }>(`select
      (select count(*) from claim_source s join chunk c on c.id = s.chunk_id where c.scopes <> s.scopes) +
      (select count(*) from claim_source s join claim c on c.id = s.claim_id where c.scopes <> s.scopes) +
      (select count(*) from mention m join chunk c on c.id = m.chunk_id where c.scopes <> m.scopes) +
      (select count(*) from mention m join entity e on e.id = m.entity_id where e.scopes <> m.scopes) +
      (select count(*) from claim c join entity e on e.id = c.subject_id where e.scopes <> c.scopes) +
      (select count(*) from claim c join entity e on e.id = c.object_id where e.scopes <> c.scopes) +
      (select count(*) from profile p join entity e on e.id = p.entity_id where e.scopes <> p.scopes) +
      (select count(*) from entity x join entity y on y.id = x.merged_into where x.scopes <> y.scopes) as n`)
    assert.equal(Number(crossings[0].n), 0)
    // Every session was promoted once: one document per (session, set), its chunks projected.
    const promoted = await q<{ scopes: string; docs: number }>(
      `select scopes::text, count(*)::int as docs from document where session_id is not null group by scopes order by scopes`,
    )
    assert.equal(promoted.length, 3)
    assert.ok(promoted.every((p) => p.docs === 1))
    const guido = await q<{ n: number }>("select count(distinct scopes)::int as n from entity where normalized_name = 'guido van rossum'")
    assert.equal(guido[0].n, 3, "the session prose reached each set's graph, separately")

    // The operator's view of a set, as that set sees it.
    const one = JSON.parse((await runCli(['graph', '--scope', A, '--json', '--limit', '500'], { env: cliEnv })).stdout)
    assert.ok(one.entities.length > 0 && one.claims.length > 0 && one.profiles.length > 0)
    assert.ok([...one.entities, ...one.claims].every((r: { scopes: string[] }) => r.scopes.join() === A))
    assert.ok(one.claims.every((c: { sources: unknown[]; weight: number }) => c.sources.length > 0 && c.weight > 0))
    const both = JSON.parse((await runCli(['graph', ...scopeFlags([A, B]), '--json', '--limit', '500'], { env: cliEnv })).stdout)
    assert.ok(both.entities.some((e: { scopes: string[] }) => e.scopes.length === 2))
    assert.ok(both.totals.entities > one.totals.entities)
    const text = await runCli(['graph', ...scopeFlags([A, B])], { env: cliEnv })
    assert.equal(text.code, 0, text.stderr)
    assert.match(text.stdout, /entities, \d+ claims, \d+ mentions, \d+ profiles/)
    const bad = await runCli(['graph', '--scope', 'not-a-uuid'], { env: cliEnv })
    assert.equal(bad.code, 2)
    assert.match(bad.stderr, /^error: not a uuid: "not-a-uuid"/m)

    assert.equal(await worker.stop(), 0)
    worker = undefined
  })
})
