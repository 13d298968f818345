import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { ConverterMissingError } from '../../src/convert/errors.js'
import { convertArtifact, ingestOriginal, reindexArtifact } from '../../src/ingest/index.js'
import { ArtifactDispatchJob, ChunkDispatchJob, MarkdownReindexJob, UsageAccountingJob } from '../../src/jobs/inventory/index.js'
import { User } from '../../src/scope/user.js'
import { parseSettings, type Settings } from '../../src/settings.js'
import { readUsageDaily, recordUsage } from '../../src/usage/record-usage.js'
import { fileDatabase } from '../support/db.js'
import { type FakeServer, fakeVector, startFakeEmbeddings } from '../support/inventory/fake-services.js'
import { runScoped } from '../support/inventory/run-jobs.js'

const A = ['11111111-1111-4111-8111-111111111111']
const B = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'].sort()
const MD = Buffer.from(
  `# Notes\n\nFirst paragraph about queues.\n\n## Details\n\n${'More detail about the queue. '.repeat(20)}\n\n\`\`\`sql\nselect 1;\n\`\`\`\n`,
)

const db = await fileDatabase()
let settings: Settings
let embeddings: FakeServer & { batches: number[] }

before(async () => {
  embeddings = await startFakeEmbeddings()
  settings = parseSettings({ AIZK_CHUNK_MAX_CHARS: '300', AIZK_CHUNK_OVERLAP_CHARS: '50' })
})
db.beforeDrop(async () => {
  await embeddings.close()
})

async function q<T extends Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db.pool.query(sql, params)).rows as T[]
}

describe('ingest', () => {
  it('stores the original, the artifact and its conversion job together', async () => {
    const r = await ingestOriginal(db.pool, settings, { bytes: MD, filename: '/tmp/notes.md', scopes: A })
    assert.equal(r.created, true)
    assert.equal(r.mediaType, 'text/markdown')
    assert.ok(r.conversionJobId)
    const [job] = await q<{ entrypoint: string; priority: number; dedupe_key: string; payload: Buffer }>(
      'select entrypoint, priority, dedupe_key, payload from pgqueuer where id = $1',
      [r.conversionJobId],
    )
    assert.equal(job.entrypoint, 'aizk_convert_artifact')
    assert.equal(job.priority, 75)
    assert.equal(job.dedupe_key, r.contentId)
    assert.deepEqual(JSON.parse(job.payload.toString()), { artifactId: r.artifactId, scopes: A })
    const [art] = await q<{ filename: string; scopes: string[]; conversion_status: string; byte_size: string }>(
      'select filename, scopes::text[] as scopes, conversion_status, byte_size from artifact where id = $1',
      [r.artifactId],
    )
    assert.deepEqual(art, { filename: 'notes.md', scopes: A, conversion_status: 'pending', byte_size: String(MD.length) })
  })

  it('the same bytes into the same scope set store once; another set keeps its own copy', async () => {
    const again = await ingestOriginal(db.pool, settings, { bytes: MD, filename: 'notes.md', scopes: A })
    assert.equal(again.created, false)
    assert.equal(again.conversionJobId, null)
    const other = await ingestOriginal(db.pool, settings, { bytes: MD, filename: 'notes.md', scopes: B })
    assert.equal(other.created, true)
    // The first conversion of these bytes is live: the second is refused, dispatch sends it later.
    assert.equal(other.conversionJobId, null)
    // One copy per set, so storing never depends on another set's rows (docs/security.md).
    assert.equal((await q('select 1 from aizk_content where content_id = $1', [again.contentId])).length, 2)
    assert.equal((await q('select 1 from artifact where content_id = $1', [again.contentId])).length, 2)
  })

  it('either both land or neither: a failing enqueue leaves no artifact and no bytes', async () => {
    await db.pool.query(`create function boom() returns trigger language plpgsql as $$ begin raise exception 'boom'; end $$;
      create trigger boom before insert on pgqueuer for each statement execute function boom()`)
    try {
      await assert.rejects(ingestOriginal(db.pool, settings, { bytes: Buffer.from('unique bytes'), filename: 'x.txt', scopes: A }), /boom/)
    } finally {
      await db.pool.query('drop trigger boom on pgqueuer; drop function boom()')
    }
    assert.equal((await q("select 1 from artifact where filename = 'x.txt'")).length, 0)
    assert.equal((await q('select 1 from aizk_content where byte_size = 12')).length, 0)
  })
})

describe('conversion', () => {
  it('writes Markdown, chunks under the artifact scopes and one projection job per chunk, in one go', async () => {
    const [art] = await q<{ id: string }>("select id from artifact where scopes = $1::uuid[] and filename = 'notes.md'", [A])
    const s = { ...settings, embeddingsUrl: `${embeddings.url}/v1` }
    const out = await convertArtifact(db.pool, s, { artifactId: art.id, scopes: A })
    assert.equal(out.outcome, 'converted')
    const chunks = await q<{ id: string; scopes: string[]; text: string; embedding: number[] | null; ordinal: number }>(
      'select id::text, scopes::text[] as scopes, text, embedding, ordinal from chunk where artifact_id = $1 order by ordinal',
      [art.id],
    )
    assert.ok(chunks.length >= 3)
    for (const c of chunks) {
      assert.deepEqual(c.scopes, A)
      assert.deepEqual(c.embedding, fakeVector(c.text))
    }
    const jobs = await q<{ dedupe_key: string; priority: number; payload: Buffer }>(
      "select dedupe_key, priority, payload from pgqueuer where entrypoint = 'aizk_build_graph_chunk' order by dedupe_key",
    )
    assert.deepEqual(
      jobs.map((j) => j.dedupe_key),
      chunks.map((c) => c.id).sort(),
    )
    assert.ok(jobs.every((j) => j.priority === 50))
    assert.deepEqual(JSON.parse(jobs[0].payload.toString()).scopes, A)
    const [row] = await q<{ conversion_status: string; markdown: string }>('select conversion_status, markdown from artifact where id = $1', [art.id])
    assert.equal(row.conversion_status, 'converted')
    assert.equal(row.markdown, MD.toString())
    // A second run of the same conversion (a retry after commit) changes nothing.
    assert.equal((await convertArtifact(db.pool, s, { artifactId: art.id, scopes: A })).outcome, 'already-converted')
  })

  it('no vectors without an embeddings endpoint', async () => {
    const r = await ingestOriginal(db.pool, settings, { bytes: Buffer.from('<h1>Page</h1><p>Hello html</p>'), filename: 'p.html', scopes: A })
    await convertArtifact(db.pool, settings, { artifactId: r.artifactId, scopes: A })
    const chunks = await q<{ text: string; embedding: unknown }>('select text, embedding from chunk where artifact_id = $1', [r.artifactId])
    assert.deepEqual(chunks, [{ text: '# Page\n\nHello html', embedding: null }])
  })

  it('a PDF with no converter fails permanently, naming the setting, with nothing half-written', async () => {
    const r = await ingestOriginal(db.pool, settings, { bytes: Buffer.from('%PDF-1.4 nothing'), filename: 'r.pdf', scopes: A })
    await assert.rejects(convertArtifact(db.pool, settings, { artifactId: r.artifactId, scopes: A }), ConverterMissingError)
    const [art] = await q<{ conversion_status: string; conversion_error: string; markdown: string | null }>(
      'select conversion_status, conversion_error, markdown from artifact where id = $1',
      [r.artifactId],
    )
    assert.equal(art.conversion_status, 'failed')
    assert.match(art.conversion_error, /AIZK_DOCLING_URL/)
    assert.equal(art.markdown, null)
    assert.equal((await q('select 1 from chunk where artifact_id = $1', [r.artifactId])).length, 0)
  })

  it('the dispatch pass sends the second scope set its conversion once the first has finished', async () => {
    const [b] = await q<{ id: string; content_id: string }>("select id, content_id from artifact where scopes = $1::uuid[] and filename = 'notes.md'", [B])
    await runScoped(ArtifactDispatchJob, db.pool, settings, B)
    // The first conversion (scope set A) is still queued (nothing ran the job row): refused.
    assert.equal((await q('select 1 from pgqueuer where dedupe_key = $1', [b.content_id])).length, 1)
    await db.pool.query('delete from pgqueuer where dedupe_key = $1', [b.content_id]) // the first finished
    await runScoped(ArtifactDispatchJob, db.pool, settings, B)
    const jobs = await q<{ payload: Buffer }>('select payload from pgqueuer where dedupe_key = $1', [b.content_id])
    assert.equal(jobs.length, 1)
    assert.deepEqual(JSON.parse(jobs[0].payload.toString()), { artifactId: b.id, scopes: B })
  })
})

describe('row security', () => {
  it('a scope set sees its own chunks and bytes, never another set the first cannot read', async () => {
    const [b] = await q<{ id: string }>("select id from artifact where scopes = $1::uuid[] and filename = 'notes.md'", [B])
    await convertArtifact(db.pool, settings, { artifactId: b.id, scopes: B })
    const only2 = ['22222222-2222-4222-8222-222222222222']
    const seen = await User.system(only2, settings).transaction(db.pool, async (c) => ({
      chunks: (await c.query('select count(*)::int as n from chunk')).rows[0].n,
      content: (await c.query('select count(*)::int as n from aizk_content')).rows[0].n,
    }))
    assert.deepEqual(seen, { chunks: 0, content: 0 })
    const inB = await User.system(B, settings).transaction(db.pool, async (c) => ({
      chunkScopes: (await c.query('select distinct scopes::text[] as s from chunk order by 1')).rows.map((r) => r.s),
      content: (await c.query('select count(*)::int as n from aizk_content')).rows[0].n,
    }))
    // B = {1, 2} reads rows scoped {1} and {1, 2}; each pass writes only its exact set.
    assert.deepEqual(inB.chunkScopes, [A, B])
    assert.ok(inB.content >= 1)
  })
})

describe('chunk dispatch', () => {
  it('sweeps pending chunks each tick without ever enqueueing one twice', async () => {
    const count = async () => (await q<{ n: number }>("select count(*)::int as n from pgqueuer where entrypoint = 'aizk_build_graph_chunk'"))[0].n
    const pending = (await q<{ n: number }>("select count(*)::int as n from chunk where projection_status = 'pending'"))[0].n
    const before = await count()
    assert.equal(before, pending)
    for (let i = 0; i < 3; i++) for (const s of [A, B]) await runScoped(ChunkDispatchJob, db.pool, settings, s)
    assert.equal(await count(), before)
    // A crashed hand-off: a pending chunk lost its job. The next tick restores exactly that one.
    const [lost] = await q<{ dedupe_key: string }>(
      "delete from pgqueuer where id = (select min(id) from pgqueuer where entrypoint = 'aizk_build_graph_chunk') returning dedupe_key",
    )
    const [{ scopes }] = await q<{ scopes: string[] }>('select scopes::text[] as scopes from chunk where id = $1', [lost.dedupe_key])
    await runScoped(ChunkDispatchJob, db.pool, settings, scopes)
    assert.equal(await count(), before)
    assert.equal((await q('select 1 from pgqueuer where dedupe_key = $1', [lost.dedupe_key])).length, 1)
  })
})

describe('reindex', () => {
  it('replaces the chunks atomically from stored Markdown and re-enqueues their projection', async () => {
    const [art] = await q<{ id: string }>("select id from artifact where scopes = $1::uuid[] and filename = 'notes.md'", [A])
    const oldIds = (await q<{ id: string }>('select id::text from chunk where artifact_id = $1', [art.id])).map((r) => r.id)
    const id = await MarkdownReindexJob.enqueueFor(db.pool, art.id, A)
    assert.ok(id)
    assert.equal(await MarkdownReindexJob.enqueueFor(db.pool, art.id, A), false)
    const out = await reindexArtifact(db.pool, { ...settings, chunkMaxChars: 2000 }, { artifactId: art.id, scopes: A })
    assert.equal(out.outcome, 'reindexed')
    const newIds = (await q<{ id: string }>('select id::text from chunk where artifact_id = $1', [art.id])).map((r) => r.id)
    assert.ok(newIds.length < oldIds.length)
    assert.equal((await q('select 1 from pgqueuer where dedupe_key = any($1::text[])', [oldIds])).length, 0)
    assert.equal((await q('select 1 from pgqueuer where dedupe_key = any($1::text[])', [newIds])).length, newIds.length)
  })
})

describe('usage accounting', () => {
  it('counts an event once by its capture key and rolls it up per scope set and day', async () => {
    const event = { captureKey: 'cap-1', scopes: A, kind: 'tokens', quantity: 120, occurredAt: new Date('2025-03-04T10:00:00Z') }
    const user = User.system(A, settings)
    assert.equal(await user.transaction(db.pool, (c) => recordUsage(c, event)), true)
    assert.equal(await user.transaction(db.pool, (c) => recordUsage(c, event)), false)
    await user.transaction(db.pool, (c) => recordUsage(c, { ...event, captureKey: 'cap-2', quantity: 30 }))
    await user.transaction(db.pool, (c) => recordUsage(c, { ...event, captureKey: 'cap-3', occurredAt: new Date('2025-03-05T00:00:00Z') }))
    const days = await user.transaction(db.pool, (c) => readUsageDaily(c, A))
    assert.deepEqual(days, [
      { scopes: A, day: '2025-03-04', kind: 'tokens', quantity: 150, events: 2 },
      { scopes: A, day: '2025-03-05', kind: 'tokens', quantity: 120, events: 1 },
    ])
  })

  it("its job enqueues keyed by its set's capture key (usage:<set>:<key>) and records through handle", async () => {
    const payload = { captureKey: 'cap-job', scopes: B, kind: 'calls', occurredAt: '2025-03-04T10:00:00Z' }
    const id = await UsageAccountingJob.enqueueEvent(db.pool, payload)
    assert.ok(id)
    assert.equal((await db.pool.query('select dedupe_key from pgqueuer where id = $1', [id])).rows[0].dedupe_key, `usage:${B.join(',')}:cap-job`)
    assert.equal(await UsageAccountingJob.enqueueEvent(db.pool, payload), false)
    const job = new UsageAccountingJob()
    const ctx = { pool: db.pool, jobId: '1', entrypoint: 'aizk_usage_event', attempts: 0, headers: {}, signal: new AbortController().signal, settings }
    const parsed = UsageAccountingJob.payload.parse(payload)
    await job.handle(parsed, ctx)
    await job.handle(parsed, ctx)
    const days = await User.system(B, settings).transaction(db.pool, (c) => readUsageDaily(c, B))
    assert.deepEqual(days, [{ scopes: B, day: '2025-03-04', kind: 'calls', quantity: 1, events: 1 }])
  })
})
