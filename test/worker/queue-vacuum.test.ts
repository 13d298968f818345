/**
 * The worker vacuums the queue table once enough of its rows changed since the last VACUUM
 * (AIZK_QUEUE_VACUUM_ROWS), on real PostgreSQL, counted by PostgreSQL's own statistics; a login
 * that may not vacuum the table says so and leaves it alone.
 */
import assert from 'node:assert/strict'
import { afterEach, describe, it } from 'node:test'
import { z } from 'zod'
import { WorkerEvents } from '../../src/events.js'
import { QueueJob } from '../../src/jobs/queue-job.js'
import { JobRegistry } from '../../src/jobs/registry.js'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { parseSettings } from '../../src/settings.js'
import { queueVacuumService } from '../../src/worker/queue-vacuum.js'
import { Worker } from '../../src/worker/worker.js'
import { createAppLogin } from '../support/app-login.js'
import { fileDatabase } from '../support/db.js'

class NoopJob extends QueueJob<unknown> {
  static override entrypoint = 'vacuum_noop'
  static override payload = z.any()
  async handle() {}
}

const db = await fileDatabase()
let worker: Worker | undefined

afterEach(async () => {
  await worker?.stop({ timeoutMs: 2000 })
  worker = undefined
})

async function vacuumsOfQueue(): Promise<number> {
  const { rows } = await db.pool.query<{ n: string }>(
    "SELECT (vacuum_count + autovacuum_count)::text AS n FROM pg_stat_user_tables WHERE relid = 'pgqueuer'::regclass",
  )
  return Number(rows[0].n)
}

async function startWorker(vacuumRows: string): Promise<WorkerEvents> {
  const registry = new JobRegistry()
  registry.register(NoopJob)
  const events = new WorkerEvents()
  worker = new Worker({
    pool: db.pool,
    registry,
    settings: parseSettings({ AIZK_QUEUE_VACUUM_ROWS: vacuumRows, AIZK_POLL_INTERVAL_SECONDS: '0.2' }),
    events,
    batchSize: 64,
    concurrency: 16,
    listen: { connectionString: db.url },
  })
  await worker.start()
  return events
}

function completions(events: WorkerEvents, n: number): Promise<void> {
  let seen = 0
  return new Promise((resolve) => events.on('job:completed', () => ++seen === n && resolve()))
}

async function successfulLogRows(): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pgqueuer_log WHERE status = 'successful' AND entrypoint = 'vacuum_noop'")
  return rows[0].n
}

describe('Worker: the queue table vacuum', () => {
  it('vacuums pgqueuer once its rows changed past AIZK_QUEUE_VACUUM_ROWS, and PostgreSQL counts the vacuum', { timeout: 60_000 }, async () => {
    const before = await vacuumsOfQueue()
    const events = await startWorker('500')
    const vacuumed = new Promise<{ changedRows: number; ms: number }>((resolve) => events.on('queue:vacuumed', resolve))
    const done = completions(events, 600)
    await enqueueMany(
      db.pool,
      Array.from({ length: 600 }, (_, i) => ({ entrypoint: 'vacuum_noop', payload: { i } })),
    )
    await done
    const e = await vacuumed
    // Each job is one update (the pick) and one delete (the completion).
    assert.ok(e.changedRows >= 500, `${e.changedRows} rows changed before the vacuum`)
    assert.ok((await vacuumsOfQueue()) > before, 'pg_stat_user_tables counted the vacuum')
    assert.equal(await successfulLogRows(), 600, 'every job ran and was logged once')
  })

  it('does not vacuum while fewer rows than AIZK_QUEUE_VACUUM_ROWS changed', { timeout: 60_000 }, async () => {
    await db.pool.query('TRUNCATE pgqueuer, pgqueuer_log')
    const events = await startWorker('100000')
    let vacuums = 0
    events.on('queue:vacuumed', () => vacuums++)
    const done = completions(events, 600)
    await enqueueMany(
      db.pool,
      Array.from({ length: 600 }, (_, i) => ({ entrypoint: 'vacuum_noop', payload: { i } })),
    )
    await done
    // Two checks of the statistics pass (every 2 s) after the 1,200 changes reached them.
    await new Promise((r) => setTimeout(r, 5000))
    assert.equal(vacuums, 0)
  })

  it('a login that may not vacuum the table says so once and leaves it to autovacuum', { timeout: 60_000 }, async () => {
    const login = await createAppLogin(db)
    try {
      const events = new WorkerEvents()
      const errors: { where: string; error: string }[] = []
      events.on('worker:error', (e) => errors.push(e))
      const service = queueVacuumService(login.pool, events, 1)
      await service.start()
      // stop() waits for the first look, which finds the login may not vacuum.
      await service.stop()
      assert.equal(errors.length, 1)
      assert.equal(errors[0].where, 'queue-vacuum')
      assert.match(errors[0].error, /may not VACUUM pgqueuer.*AIZK_QUEUE_VACUUM_ROWS=0/)
    } finally {
      await login.drop()
    }
  })
})
