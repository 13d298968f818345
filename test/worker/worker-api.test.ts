/**
 * The Worker class in-process: registration, services started with it and stopped before it
 * drains, events, and deregistration on a clean stop. Real PostgreSQL.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { z } from 'zod'
import { WorkerEvents } from '../../src/events.js'
import { QueueJob } from '../../src/jobs/queue-job.js'
import { JobRegistry } from '../../src/jobs/registry.js'
import { enqueue } from '../../src/queue/enqueue.js'
import { parseSettings } from '../../src/settings.js'
import { Worker } from '../../src/worker/worker.js'
import { fileDatabase } from '../support/db.js'

const seen: string[] = []
class ApiJob extends QueueJob<{ word: string }> {
  static override entrypoint = 'api_probe'
  static override payload = z.object({ word: z.string() })
  async handle(payload: { word: string }) {
    seen.push(payload.word)
  }
}

const db = await fileDatabase()

describe('Worker', () => {
  it('registers, runs services around the loop, emits events, deregisters on stop', async () => {
    const registry = new JobRegistry()
    registry.register(ApiJob)
    const events = new WorkerEvents()
    const log: string[] = []
    events.onAny((name) => log.push(name))
    const calls: string[] = []
    const settings = parseSettings({ AIZK_POLL_INTERVAL_SECONDS: '0.1' })
    const worker = new Worker({
      pool: db.pool,
      registry,
      settings,
      events,
      batchSize: 8,
      concurrency: 8,
      listen: { connectionString: db.url },
      services: [{ start: () => void calls.push('start'), stop: async () => void calls.push(`stop:${worker.draining}`) }],
    })
    assert.throws(
      () => new Worker({ pool: db.pool, registry, settings, batchSize: 1, concurrency: 1, entrypoints: ['nope'] }),
      /no job with a handler for entrypoint nope/,
    )
    await worker.start()
    const { rows } = await db.pool.query('select entrypoints, pid from aizk_worker where queue_manager_id = $1', [worker.queueManagerId])
    assert.deepEqual(rows, [{ entrypoints: ['api_probe'], pid: process.pid }])
    const completed = new Promise<string>((resolve) => events.on('job:completed', (e) => resolve(e.jobId)))
    const written = new Promise<number>((resolve) => events.on('outcomes:written', (e) => e.completed && resolve(e.completed)))
    const id = await enqueue(db.pool, { entrypoint: 'api_probe', payload: { word: 'hello' } })
    assert.equal(await completed, id)
    // Committed when the event comes: no polling of pgqueuer_log.
    assert.equal(await written, 1)
    const { rows: logRows } = await db.pool.query('select job_id, status from pgqueuer_log')
    assert.deepEqual(logRows, [{ job_id: id, status: 'successful' }])
    await worker.stop({ timeoutMs: 2000 })
    assert.deepEqual(seen, ['hello'])
    assert.deepEqual(calls, ['start', 'stop:true'])
    assert.equal((await db.pool.query('select 1 from aizk_worker')).rowCount, 0)
    for (const name of ['worker:started', 'batch:picked', 'job:picked', 'job:completed', 'outcomes:written', 'worker:stopping', 'worker:stopped']) {
      assert.ok(log.includes(name), `${name} emitted`)
    }
  })
})
