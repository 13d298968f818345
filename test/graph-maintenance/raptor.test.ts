/**
 * RAPTOR against a local OpenAI-compatible stand-in (embeddings and chat over real HTTP): chunk
 * vectors clustered, each cluster summarised by the model, the summaries embedded and clustered
 * again until a level is small; the tree replaces the set's old one atomically and stays inside
 * its set under row security. Enabling RAPTOR without an embeddings endpoint is exit 3.
 */
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { embedChunkTexts } from '../../src/embedding/embed-chunks.js'
import { buildRaptor } from '../../src/graph/maintain/raptor/build-raptor.js'
import { writeDocument } from '../../src/graph/project/write-memory.js'
import { RaptorJob } from '../../src/jobs/inventory/index.js'
import { jobRegistry } from '../../src/jobs/registry.js'
import { parseSettings, type Settings } from '../../src/settings.js'
import { A, B, fileAppLogin } from '../support/app-login.js'
import { runCli } from '../support/cli.js'
import { fileDatabase } from '../support/db.js'
import { corpusText } from '../support/graph/corpus.js'
import { asSet, countVisible, jobContext } from '../support/graph/graph.js'
import { DIMENSIONS, type StandIn, startStandIn } from '../support/graph/stand-in.js'

const db = await fileDatabase()
const app = await fileAppLogin(db)
let api: StandIn
let settings: Settings
const CLUSTER = 4

interface Node {
  id: string
  level: number
  summary: string
  dims: number
  chunks: string[]
  nodes: string[]
}

async function tree(scopes: string[]): Promise<Node[]> {
  return asSet(app.scoped, scopes, async (q) => {
    const { rows } = await q.query<Node>(
      `SELECT id::text, level, summary, cardinality(embedding) AS dims, child_chunk_ids::text[] AS chunks, child_node_ids::text[] AS nodes
         FROM raptor_node WHERE scopes = $1::uuid[] ORDER BY level, id`,
      [scopes],
    )
    return rows
  })
}

/** Chunks of real prose, embedded through the stand-in as ingestion would. */
async function seed(scopes: string[], file: string): Promise<string[]> {
  return asSet(app.scoped, scopes, async (q) => {
    await writeDocument(q, scopes, { title: file, body: corpusText(file).slice(0, 9000) }, { chunkMaxChars: 400, chunkOverlapChars: 0 })
    const { rows } = await q.query<{ id: string; text: string }>('SELECT id::text, text FROM chunk WHERE scopes = $1::uuid[] ORDER BY ordinal', [scopes])
    const vectors = await embedChunkTexts(
      rows.map((r) => r.text),
      settings,
    )
    await q.query('UPDATE chunk SET embedding = u.v::real[] FROM jsonb_to_recordset($1::jsonb) AS u(id uuid, v float8[]) WHERE chunk.id = u.id', [
      JSON.stringify(rows.map((r, i) => ({ id: r.id, v: vectors[i] }))),
    ])
    return rows.map((r) => r.id)
  })
}

before(async () => {
  api = await startStandIn()
  const env = {
    AIZK_RAPTOR_ENABLED: 'true',
    AIZK_RAPTOR_CLUSTER_SIZE: String(CLUSTER),
    AIZK_EMBEDDINGS_URL: `${api.url}/v1`,
    AIZK_LLM_URL: `${api.url}/v1`,
    AIZK_LLM_MODEL: 'stand-in',
  }
  // The job reads the worker's settings from its context (RAPTOR's own pair from the registry).
  settings = parseSettings(env, { registry: jobRegistry })
})
db.beforeDrop(async () => {
  await api.close()
})

describe('RAPTOR', () => {
  let chunks: string[]

  it('builds a tree over the set chunks: clusters summarised by the model, summaries embedded, until a level is small', async () => {
    chunks = await seed([A], 'tutorial/controlflow.rst.txt')
    assert.ok(chunks.length > CLUSTER * CLUSTER, `enough chunks for two levels (${chunks.length})`)
    const chatsBefore = api.chats
    const embeddedBefore = api.embedded
    let detail: Record<string, unknown> = {}
    await new RaptorJob().handle({ scopes: [A] }, { ...jobContext(app.scoped, RaptorJob.entrypoint, settings), report: (d) => (detail = d) })
    const nodes = await tree([A])
    assert.ok(nodes.length > 0)
    const levels = [...new Set(nodes.map((n) => n.level))]
    assert.ok(levels.length >= 2, `levels ${levels}`)
    assert.deepEqual(
      detail.levels,
      levels.map((l) => nodes.filter((n) => n.level === l).length),
    )
    // Level 1 covers every chunk exactly once; each level above covers the one below exactly once.
    const level1 = nodes.filter((n) => n.level === 1)
    assert.deepEqual(level1.flatMap((n) => n.chunks).sort(), [...chunks].sort())
    for (const level of levels.slice(1)) {
      const below = nodes.filter((n) => n.level === level - 1).map((n) => n.id)
      const here = nodes.filter((n) => n.level === level)
      assert.deepEqual(here.flatMap((n) => n.nodes).sort(), below.sort())
      assert.ok(here.every((n) => n.chunks.length === 0))
    }
    assert.ok(nodes.every((n) => n.chunks.length + n.nodes.length <= CLUSTER && n.dims === DIMENSIONS))
    assert.ok(nodes.filter((n) => n.level === Math.max(...levels)).length <= CLUSTER, 'the top level is small')
    assert.ok(nodes.every((n) => n.summary.startsWith('Model summary:')))
    assert.equal(api.chats - chatsBefore, nodes.length, 'one model summary per node')
    assert.equal(api.embedded - embeddedBefore, nodes.length, 'every summary embedded')
  })

  it('replaces the tree whole, and keeps each set to its own chunks', async () => {
    const first = await tree([A])
    await seed([B], 'tutorial/datastructures.rst.txt')
    await new RaptorJob().handle({ scopes: [B] }, jobContext(app.scoped, RaptorJob.entrypoint, settings))
    assert.deepEqual(await tree([A]), first, "{B}'s pass leaves {A}'s tree alone")
    await new RaptorJob().handle({ scopes: [A] }, jobContext(app.scoped, RaptorJob.entrypoint, settings))
    const second = await tree([A])
    assert.equal(second.length, first.length)
    assert.ok(
      second.every((n) => !first.some((f) => f.id === n.id)),
      'the old tree is gone',
    )
    assert.equal(await countVisible(app.scoped, [B], 'raptor_node', `scopes = '{${A}}'`), 0)
    const bChunks = (await tree([B])).filter((n) => n.level === 1).flatMap((n) => n.chunks)
    const foreign = await asSet(
      app.scoped,
      [B],
      async (q) => (await q.query('SELECT count(*)::int AS n FROM chunk WHERE id = ANY($1::uuid[]) AND scopes <> $2::uuid[]', [bChunks, [B]])).rows[0].n,
    )
    assert.equal(foreign, 0)
  })

  it('a failing embeddings endpoint leaves the old tree in place', async () => {
    const before = await tree([A])
    const down = await startStandIn({ failEmbeddings: 1000 })
    try {
      const broken = { ...settings, embeddingsUrl: `${down.url}/v1` }
      await assert.rejects(
        asSet(app.scoped, [A], (q) => buildRaptor(q, [A], broken)),
        /HTTP 503/,
      )
    } finally {
      await down.close()
    }
    assert.deepEqual(await tree([A]), before)
  })

  it('is queued by hand with aizk enqueue, and refuses to be enabled without an embeddings endpoint (exit 3)', async () => {
    const env = { AIZK_DATABASE_URL: db.url, AIZK_RAPTOR_ENABLED: 'true', AIZK_EMBEDDINGS_URL: `${api.url}/v1` }
    const queued = await runCli(['enqueue', 'aizk_task_raptor', '--payload', JSON.stringify({ scopes: [A] }), '--json'], { env })
    assert.equal(queued.code, 0, queued.stderr)
    const rows = await db.pool.query("SELECT priority FROM pgqueuer WHERE entrypoint = 'aizk_task_raptor'")
    assert.deepEqual(rows.rows, [{ priority: 10 }])
    const bad = await runCli(['jobs'], { env: { AIZK_DATABASE_URL: db.url, AIZK_RAPTOR_ENABLED: 'true' } })
    assert.equal(bad.code, 3)
    assert.match(bad.stderr, /error: .*invalid settings[\s\S]*AIZK_RAPTOR_ENABLED: .*AIZK_EMBEDDINGS_URL/)
    const jobs = JSON.parse((await runCli(['jobs', 'types', '--json'], { env })).stdout)
    const raptor = (jobs.jobs ?? jobs).find((j: { entrypoint: string }) => j.entrypoint === 'aizk_task_raptor')
    assert.equal(raptor.cron, 'off')
    assert.equal(raptor.enabled, true)
    assert.equal(raptor.nextFire, null)
  })
})
