/**
 * ChunkRecoveryJob through a real worker, with projection jobs that can never succeed (their
 * payloads fail ChunkProjectionJob's schema, so each run is held at once): each held projection
 * is requeued on every recovery tick until it has burned chunkRecoveryMaxCycles (3) cycles,
 * then left held for an operator.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ChunkRecoveryJob } from '../../src/jobs/inventory/index.js'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { fanOut } from '../../src/scheduler/fan-out.js'
import { parseSettings } from '../../src/settings.js'
import { fileDatabase } from '../support/db.js'
import { waitFor } from '../support/wait-for.js'
import { startWorker, type WorkerWithLines as WorkerProcess } from '../support/worker-process.js'

const db = await fileDatabase()
let worker: WorkerProcess | undefined

db.beforeDrop(async () => {
  await worker?.stop()
})

type Row = { dedupe_key: string; status: string; cycles: number | null }

describe('ChunkRecoveryJob through a worker', () => {
  it('requeues held chunk projections at most chunkRecoveryMaxCycles times', async () => {
    await enqueueMany(
      db.pool,
      ['k1', 'k2'].map((k) => ({ entrypoint: 'aizk_build_graph_chunk', priority: 50, dedupeKey: k, payload: { chunkId: k } })),
    )
    worker = startWorker({
      AIZK_DATABASE_URL: db.url,
      AIZK_WORKER_NO_SCHEDULER: 'true',
    })
    const rows = async () =>
      (
        await db.pool.query<Row>(
          `select dedupe_key, status::text, (headers->'aizk'->>'cycles')::int as cycles from pgqueuer
            where entrypoint = 'aizk_build_graph_chunk' order by dedupe_key`,
        )
      ).rows
    const allHeld = () => waitFor('both projections held', async () => (await rows()).every((r) => r.status === 'failed'))
    const settings = parseSettings({})
    await allHeld()
    for (let cycle = 1; cycle <= 5; cycle++) {
      await fanOut(ChunkRecoveryJob, db.pool, settings)
      await waitFor(
        'recovery tick ran',
        async () => (await db.pool.query("select 1 from pgqueuer where entrypoint = 'aizk_task_chunk_recovery'")).rowCount === 0,
      )
      await allHeld()
      const expected = Math.min(cycle, 3)
      assert.deepEqual(
        (await rows()).map((r) => [r.dedupe_key, r.status, r.cycles]),
        [
          ['k1', 'failed', expected],
          ['k2', 'failed', expected],
        ],
      )
    }
    assert.equal(await worker.stop(), 0)
    worker = undefined
  })
})
