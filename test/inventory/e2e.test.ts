/**
 * The inventory end to end through real processes: `aizk ingest` for Markdown, HTML and text into
 * two scope sets, a real `aizk worker` converting them and running the passes' ticks (fanned out
 * by the test exactly as a cron tick fans out), a PDF with no converter held, a crashed hand-off recovered, a corrupted original
 * caught by the integrity pass, every chunk projected once, and `aizk jobs types` listing the inventory with its spec values.
 */
import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { before, describe, it } from 'node:test'
import { ingestOriginal } from '../../src/ingest/index.js'
import { ArtifactDispatchJob, ArtifactIntegrityJob, ChunkDispatchJob } from '../../src/jobs/inventory/index.js'
import type { ScheduledJobClass } from '../../src/jobs/scheduled-job.js'
import { fanOut } from '../../src/scheduler/fan-out.js'
import { parseSettings } from '../../src/settings.js'
import { runCli } from '../support/cli.js'
import { fileDatabase } from '../support/db.js'
import { waitFor } from '../support/wait-for.js'
import { startWorker, type WorkerWithLines as WorkerProcess } from '../support/worker-process.js'

const S1 = '55555555-5555-4555-8555-555555555555'
const S2 = '66666666-6666-4666-8666-666666666666'
const SETS = [[S1], [S1, S2]]

const db = await fileDatabase()
let dir: string
let worker: WorkerProcess | undefined
// Ticks are fired by the test (the scheduler's own fan-out), so each one is counted and awaited.
const env = () => ({
  AIZK_DATABASE_URL: db.url,
  AIZK_WORKER_NO_SCHEDULER: 'true',
  AIZK_INTEGRITY_MIN_AGE_DAYS: '0',
  AIZK_CHUNK_MAX_CHARS: '200',
  AIZK_CHUNK_OVERLAP_CHARS: '40',
})

async function q<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db.pool.query(sql, params)).rows as T[]
}

/** One cron tick of a pass, and wait until the worker has run every job it fanned out. */
async function tick(job: ScheduledJobClass): Promise<void> {
  await fanOut(job, db.pool, parseSettings({}))
  await waitFor(`${job.entrypoint} drained`, async () => (await q('select 1 from pgqueuer where entrypoint = $1 limit 1', [job.entrypoint])).length === 0)
}

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'aizk-e2e-'))
})
db.beforeDrop(async () => {
  await worker?.stop()
  await rm(dir, { recursive: true, force: true })
})

describe('inventory end to end', () => {
  it('converts, chunks, projects once, holds what cannot convert, recovers and verifies', async () => {
    const files = {
      'guide.md': `# Guide\n\n${'The queue keeps work durable. '.repeat(12)}\n\n## Code\n\n\`\`\`js\nconsole.log(1)\n\`\`\`\n`,
      'page.html': `<html><body><h1>Page</h1><p>${'Hello from HTML. '.repeat(15)}</p><table><tr><th>a</th></tr><tr><td>1</td></tr></table></body></html>`,
      'notes.txt': `${'plain text line\n'.repeat(20)}`,
      'report.pdf': '%PDF-1.4 not really a pdf',
    }
    for (const [name, body] of Object.entries(files)) await writeFile(path.join(dir, name), body)
    for (const set of SETS) {
      for (const name of ['guide.md', 'page.html', 'notes.txt']) {
        const res = await runCli(['ingest', path.join(dir, name), ...set.flatMap((s) => ['--scope', s]), '--json'], { env: { AIZK_DATABASE_URL: db.url } })
        assert.equal(res.code, 0, res.stderr)
        assert.equal(JSON.parse(res.stdout).created, true)
      }
    }
    const pdf = await runCli(['ingest', path.join(dir, 'report.pdf'), '--scope', S1, '--json'], { env: { AIZK_DATABASE_URL: db.url } })
    assert.equal(pdf.code, 0, pdf.stderr)
    const pdfJob = JSON.parse(pdf.stdout).conversionJobId as string
    const bad = await runCli(['ingest', path.join(dir, 'notes.txt'), '--scope', 'not-a-uuid'], { env: { AIZK_DATABASE_URL: db.url } })
    assert.equal(bad.code, 2)

    // A crashed hand-off: an artifact pending with no live conversion job.
    const settings = parseSettings({})
    const orphan = await ingestOriginal(db.pool, settings, { bytes: Buffer.from('# Orphan\n\nleft pending\n'), filename: 'orphan.md', scopes: [S2] })
    await db.pool.query('delete from pgqueuer where id = $1', [orphan.conversionJobId])
    // An original whose stored bytes rot (same length, different bytes).
    const rotten = await ingestOriginal(db.pool, settings, { bytes: Buffer.from('good original'), filename: 'rot.txt', scopes: [S2] })
    // Rot happens below the hash constraint, which checks writes only: drop it to simulate rot.
    await db.pool.query('alter table aizk_content drop constraint aizk_content_id_is_hash_of_bytes')
    await db.pool.query("update aizk_content set bytes = 'evil original'::bytea where content_id = $1", [rotten.contentId])

    worker = startWorker(env())
    // Every artifact but the PDF converted, the second scope set's copies via the dispatch pass.
    await waitFor('all text artifacts converted', async () => {
      await tick(ArtifactDispatchJob)
      const rows = await q<{ n: number }>("select count(*)::int as n from artifact where conversion_status = 'converted'")
      return rows[0].n === 8
    })
    const arts = await q<{ id: string; scopes: string[]; filename: string }>(
      "select id::text, scopes::text[] as scopes, filename from artifact where conversion_status = 'converted'",
    )
    for (const a of arts) {
      const chunks = await q<{ scopes: string[] }>('select scopes::text[] as scopes from chunk where artifact_id = $1', [a.id])
      assert.ok(chunks.length > 0, `${a.filename} has no chunks`)
      assert.ok(
        chunks.every((c) => c.scopes.join() === a.scopes.join()),
        `${a.filename}: chunk under the wrong scopes`,
      )
    }

    // The PDF: held at once, its error naming the setting to set.
    const held = await waitFor('the PDF conversion held', async () =>
      (await q<{ status: string; attempts: number }>('select status::text, attempts from pgqueuer where id = $1', [pdfJob])).find((r) => r.status === 'failed'),
    )
    const [log] = await q<{ message: string }>("select traceback->>'exception_message' as message from pgqueuer_log where job_id = $1 and status = 'failed'", [
      pdfJob,
    ])
    assert.match(log.message, /AIZK_DOCLING_URL/)
    const [pdfArt] = await q<{ conversion_status: string; conversion_error: string }>(
      "select conversion_status, conversion_error from artifact where filename = 'report.pdf'",
    )
    assert.equal(pdfArt.conversion_status, 'failed')
    assert.match(pdfArt.conversion_error, /AIZK_DOCLING_URL/)

    // One projection per chunk, none twice, however many dispatch ticks sweep them.
    const runs = async () =>
      (await q<{ n: number }>("select count(*)::int as n from pgqueuer_log where entrypoint = 'aizk_task_chunk_dispatch' and status = 'successful'"))[0].n
    for (let i = 0; i < 3; i++) await tick(ChunkDispatchJob)
    assert.equal(await runs(), 3 * 3) // three ticks over the roster's three scope sets
    await waitFor('projections drained', async () => (await q("select 1 from pgqueuer where entrypoint = 'aizk_build_graph_chunk' limit 1")).length === 0)
    const [proj] = await q<{ runs: number; chunks: number; projected: number }>(`select
        (select count(*)::int from pgqueuer_log where entrypoint = 'aizk_build_graph_chunk' and status = 'successful') as runs,
        (select count(*)::int from chunk) as chunks,
        (select count(*)::int from chunk where projection_status = 'projected') as projected`)
    assert.deepEqual(proj, { runs: proj.chunks, chunks: proj.chunks, projected: proj.chunks })

    // The rotten original is caught by the integrity pass.
    await tick(ArtifactIntegrityJob)
    await waitFor(
      'integrity mismatch marked',
      async () => (await q<{ s: string }>('select integrity_status as s from artifact where id = $1', [rotten.artifactId]))[0].s === 'mismatch',
    )
    await worker.waitFor((e) => e.event === 'artifact:integrity' && e.artifactId === rotten.artifactId && e.status === 'mismatch', 'integrity event line')
    assert.equal((await q<{ s: string }>('select integrity_status as s from artifact where id = $1', [orphan.artifactId]))[0].s, 'ok')
    // ... and reported where an operator looks: `aizk status` and its health check.
    const status = JSON.parse((await runCli(['status', '--json'], { env: { AIZK_DATABASE_URL: db.url } })).stdout)
    assert.deepEqual(status.integrity, { mismatch: 1, missing: 0 })
    const check = await runCli(['status', '--check', '--max-held', '1000'], { env: { AIZK_DATABASE_URL: db.url } })
    assert.equal(check.code, 7)
    assert.match(check.stderr, /1 artifact original\(s\) failed re-verification \(1 mismatch, 0 missing\)/)

    assert.equal(await worker.stop(), 0)
    worker = undefined
    // Needs the worker to hold an error marked `permanent` at once (src/worker/executor.ts).
    assert.equal(held.attempts, 1, 'a conversion no retry can mend is held at once, not retried')
  })

  it('`aizk jobs types` lists every job of the inventory with its spec values', async () => {
    const res = await runCli(['jobs', 'types', '--json'], { env: { AIZK_DATABASE_URL: db.url } })
    assert.equal(res.code, 0, res.stderr)
    const jobs = (
      JSON.parse(res.stdout).jobs as { entrypoint: string; priority: number; concurrencyLimit: number; cron: string | null; enabled: boolean }[]
    ).map((j) => [j.entrypoint, j.priority, j.concurrencyLimit, j.cron, j.enabled])
    for (const expected of [
      ['aizk_convert_artifact', 75, 4, null, true],
      ['aizk_reindex_artifact', 75, 4, null, true],
      ['aizk_usage_event', 0, 0, null, true],
      ['aizk_task_artifact_dispatch', 10, 1, '* * * * *', true],
      ['aizk_task_chunk_dispatch', 10, 1, '* * * * *', true],
      ['aizk_build_graph_chunk', 50, 4, null, true],
      ['aizk_task_chunk_recovery', 10, 1, '* * * * *', true],
      ['aizk_task_artifact_integrity', 10, 1, '0 6 * * *', true],
      ['aizk_task_cleanup', 10, 1, '0 1 * * *', true],
      ['aizk_task_backup', 10, 1, '0 2 * * *', false],
    ]) {
      assert.deepEqual(
        jobs.find((j) => j[0] === expected[0]),
        expected,
      )
    }
  })
})
