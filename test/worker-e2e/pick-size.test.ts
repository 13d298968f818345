/**
 * The size of a pick with real worker processes (docs/job-lifecycle.md#the-size-of-a-pick):
 * picks double while they come back full, up to 8 batches; a short pick goes back to the batch
 * size; without a local queue they never grow. Every job still ends with one successful log row.
 */
import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { fileDatabase } from '../support/db.js'
import { waitFor } from '../support/wait-for.js'
import { isEvent, spawnWorker, type WorkerProcess, workerEnv } from '../support/worker-process.js'

const db = await fileDatabase()
const workers: WorkerProcess[] = []

beforeEach(async () => {
  await db.pool.query('truncate pgqueuer, pgqueuer_log, aizk_worker')
})
afterEach(async () => {
  for (const w of workers.splice(0)) await w.kill()
})

const BATCH = 8

function start(extra: Record<string, string> = {}): WorkerProcess {
  const w = spawnWorker(
    workerEnv(db.url, { AIZK_QUEUE_BATCH_SIZE: String(BATCH), AIZK_QUEUE_CONCURRENT_TASKS: '16', AIZK_WORKER_ENTRYPOINTS: 'test_noop', ...extra }),
  )
  workers.push(w)
  return w
}

function enqueueNoops(n: number): Promise<unknown> {
  return enqueueMany(
    db.pool,
    Array.from({ length: n }, (_, i) => ({ entrypoint: 'test_noop', payload: { i } })),
  )
}

const pickCounts = (w: WorkerProcess): number[] => w.events.filter(isEvent('batch:picked')).map((e) => e.count as number)

async function drained(): Promise<void> {
  await waitFor('every job completed in the database', async () => (await db.pool.query('select count(*)::int as n from pgqueuer')).rows[0].n === 0, 30_000)
}

async function assertOneSuccessEach(total: number): Promise<void> {
  const log = await db.pool.query<{ status: string; jobs: number; rows: number }>(
    'select status::text, count(distinct job_id)::int as jobs, count(*)::int as rows from pgqueuer_log group by 1',
  )
  assert.deepEqual(log.rows, [{ status: 'successful', jobs: total, rows: total }])
}

describe('aizk worker end to end: the size of a pick', () => {
  it('grows picks while they come back full, never past 8 batches, and starts again from a batch after a short one', async () => {
    await enqueueNoops(2000)
    const w = start()
    await drained()
    const grown = pickCounts(w)
    assert.equal(grown[0], BATCH, 'the first pick asks for one batch')
    assert.ok(grown.includes(BATCH * 8), `a deep queue reaches the ceiling of 8 batches: ${grown.join(',')}`)
    assert.ok(Math.max(...grown) <= BATCH * 8, `no pick beyond the ceiling: ${grown.join(',')}`)

    // The queue ran dry: the next picks start from a batch again.
    const before = grown.length
    await enqueueNoops(3)
    await w.waitForCount(isEvent('batch:picked'), before + 1, 'a pick of the three')
    await drained()
    await enqueueNoops(500)
    await w.waitForCount(isEvent('batch:picked'), before + 2, 'the first pick of the 500')
    await drained()
    const after = pickCounts(w).slice(before)
    assert.equal(after[0], 3, 'the short pick took the three')
    assert.equal(after[1], BATCH, 'after a short pick, a pick asks for one batch again')
    await assertOneSuccessEach(2503)
  })

  it('never grows a pick beyond the batch size without a local queue', async () => {
    await enqueueNoops(600)
    const w = start({ AIZK_QUEUE_LOCAL_SIZE: '0' })
    await drained()
    const counts = pickCounts(w)
    assert.ok(counts.length >= 600 / BATCH, `picks of at most a batch: ${counts.length} picks`)
    assert.ok(Math.max(...counts) <= BATCH, `no pick beyond ${BATCH}: ${counts.join(',')}`)
    await assertOneSuccessEach(600)
  })
})
