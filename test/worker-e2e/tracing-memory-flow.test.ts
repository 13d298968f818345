/**
 * The memory flow with tracing on gives what it gives with tracing off. A note is ingested with
 * `aizk ingest --scope` into a database of its own twice: once with no tracing, once with
 * OTEL_EXPORTER_OTLP_ENDPOINT set on the CLI and on a real `aizk worker`, exporting to a local
 * OTLP/HTTP receiver. Every job of the flow (conversion, chunk projection, the profile pass the
 * scheduler fans out) runs; the traced run's scoped enqueues carry their trace context through
 * the door (aizk_app_enqueue), where it used to be refused and the conversion held.
 */
import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { runCli } from '../support/cli.js'
import { freshDatabases } from '../support/db.js'
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver.js'
import { waitFor } from '../support/wait-for.js'
import { startWorker, type WorkerWithLines } from '../support/worker-process.js'

const SCOPE = '6c0f7a52-3d1e-4b8a-9f2c-5e7d1a2b3c4d'
const NOTE = `# Field notes

Ada Lovelace worked with Charles Babbage on the Analytical Engine in London.
Charles Babbage designed the Difference Engine. Ada Lovelace wrote the first published program.

## Later

Alan Turing studied at Cambridge. Alan Turing worked at Bletchley Park during the war.
`

interface FlowResult {
  held: unknown[]
  finished: { entrypoint: string; status: string }[]
  chunks: number
  entities: string[]
  claims: number
  profiles: number
}

let dir: string
let receiver: OtlpReceiver
const freshDatabase = freshDatabases()
const workers: WorkerWithLines[] = []

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'aizk-traced-flow-'))
  await writeFile(path.join(dir, 'note.md'), NOTE)
  receiver = await startOtlpReceiver()
})
freshDatabase.beforeDrop(async () => {
  for (const w of workers) await w.kill()
  await receiver.close()
})
after(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** Ingest the note and run the worker until the flow is done; what it left in the database. */
async function runFlow(tracing: Record<string, string>): Promise<FlowResult> {
  const db = await freshDatabase()
  const q = async <T>(sql: string) => (await db.pool.query(sql)).rows as T[]
  const ingest = await runCli(['ingest', path.join(dir, 'note.md'), '--scope', SCOPE, '--json'], { env: { AIZK_DATABASE_URL: db.url, ...tracing } })
  assert.equal(ingest.code, 0, ingest.stderr)
  const worker = startWorker({
    AIZK_DATABASE_URL: db.url,
    AIZK_PROFILE_PROJECTION_CRON: '*/1 * * * * *',
    AIZK_RETRY_BASE_SECONDS: '0.05',
    AIZK_RETRY_MAX_SECONDS: '0.1',
    AIZK_CHUNK_RECOVERY_ENABLED: 'false',
    AIZK_CLEANUP_ENABLED: 'false',
    AIZK_ARTIFACT_INTEGRITY_ENABLED: 'false',
    ...tracing,
  })
  workers.push(worker)
  try {
    await waitFor(
      'the note converted, its chunks projected and its profiles built, or a job held',
      async () => {
        const [s] = await q<{ converted: number; pending: number; queued: number; held: number; profiles: number; dirty: number }>(`select
          (select count(*)::int from artifact where conversion_status = 'converted') as converted,
          (select count(*)::int from chunk where projection_status <> 'projected') as pending,
          (select count(*)::int from pgqueuer where status <> 'failed' and entrypoint not like 'aizk_task_%') as queued,
          (select count(*)::int from pgqueuer where status = 'failed') as held,
          (select count(*)::int from profile) as profiles,
          (select count(*)::int from profile where dirty) as dirty`)
        return s.held > 0 || (s.converted === 1 && s.pending === 0 && s.queued === 0 && s.profiles > 0 && s.dirty === 0)
      },
      120_000,
    )
  } finally {
    await worker.stop()
  }
  return {
    held: await q("select entrypoint, headers -> 'aizk' -> 'lastError' ->> 'message' as error from pgqueuer where status = 'failed'"),
    // Scheduled passes (aizk_task_*) fire by the clock, so whether a dispatch sweep ran inside a
    // run is timing, not tracing; the profile pass's work is compared through the profiles.
    finished: await q(
      "select distinct entrypoint, status::text as status from pgqueuer_log where status <> 'queued' and status <> 'picked' and entrypoint not like 'aizk_cron_%' and entrypoint not like 'aizk_task_%' order by 1, 2",
    ),
    chunks: (await q<{ n: number }>('select count(*)::int as n from chunk'))[0].n,
    entities: (await q<{ name: string }>('select normalized_name as name from entity where merged_into is null order by 1')).map((r) => r.name),
    claims: (await q<{ n: number }>('select count(*)::int as n from claim'))[0].n,
    profiles: (await q<{ n: number }>('select count(*)::int as n from profile'))[0].n,
  }
}

describe('the memory flow with tracing on and off', () => {
  it('gives the same results, and the traced run exports the spans of every job', { timeout: 300_000 }, async () => {
    const plain = await runFlow({})
    assert.deepEqual(plain.held, [], 'nothing held without tracing')
    assert.ok(plain.chunks > 0 && plain.entities.length > 0 && plain.claims > 0 && plain.profiles > 0, JSON.stringify(plain))

    const traced = await runFlow({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '100' })
    assert.deepEqual(traced.held, [], 'nothing held with tracing on')
    assert.deepEqual(traced, plain)

    assert.deepEqual(receiver.rejected, [])
    const processed = await waitFor(
      'process spans of the conversion and a chunk projection',
      () => {
        const convert = receiver.spans.find((s) => s.name === 'process aizk_convert_artifact')
        const chunk = receiver.spans.find((s) => s.name === 'process aizk_build_graph_chunk')
        return convert && chunk ? { convert, chunk } : undefined
      },
      30_000,
    )
    assert.equal(processed.chunk.traceId, processed.convert.traceId, "a chunk's projection continues the trace of the conversion that enqueued it")
  })
})
