/**
 * The executor never runs a job it is already running (a worker whose heartbeat lapsed re-picks
 * its own rows), and once the worker has drained, a handler that settles late writes nothing
 * and leaves no timer behind: the late completion retried forever on the closed pool and kept a
 * stopped worker alive. Real PostgreSQL.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { z } from 'zod'
import { WorkerEvents } from '../../src/events.js'
import { QueueJob } from '../../src/jobs/queue-job.js'
import type { PickedJob } from '../../src/queue/pick.js'
import { parseSettings } from '../../src/settings.js'
import { Executor } from '../../src/worker/executor.js'
import { OutcomeBuffer } from '../../src/worker/outcomes.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase()
let starts = 0
const gates: (() => void)[] = []
class GatedJob extends QueueJob<Record<string, never>> {
  static override entrypoint = 'gated_probe'
  static override payload = z.object({})
  async handle() {
    starts++
    await new Promise<void>((resolve) => gates.push(resolve))
  }
}

const picked = (id: string): PickedJob => ({
  id,
  priority: 0,
  entrypoint: 'gated_probe',
  payload: Buffer.from('{}'),
  headers: null,
  attempts: 0,
  readyAtMs: Date.now(),
  recovered: true,
})

function timers(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'Timeout' || r === 'Immediate').length
}

describe('executor faults', () => {
  it('refuses to start a job id it is already running; the first run settles it once', async () => {
    const errors: unknown[] = []
    const outcomes = new OutcomeBuffer(
      db.pool,
      crypto.randomUUID(),
      { hasSlot: false },
      (_w, e) => errors.push(e),
      () => {},
    )
    const executor = new Executor({
      pool: db.pool,
      events: new WorkerEvents(),
      outcomes,
      settings: parseSettings({}, { overrides: { retryBaseSeconds: 1, retryMaxSeconds: 1, jobTimeoutSeconds: 0 } }),
      jobs: new Map([['gated_probe', GatedJob]]),
      onSlotFree: () => {},
    })
    assert.equal(executor.execute(picked('41')), true)
    assert.equal(executor.execute(picked('41')), false)
    assert.equal(starts, 1)
    assert.equal(executor.size, 1)
    for (const open of gates.splice(0)) open()
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(executor.size, 0)
    assert.equal(executor.finishedCount, 1)
    executor.close()
    outcomes.close()
  })

  it('after the drain, a late outcome starts no write and no timer, even on an ended pool', async () => {
    const errors: unknown[] = []
    const pool = new (await import('pg')).default.Pool({ connectionString: db.url, max: 1 })
    const outcomes = new OutcomeBuffer(
      pool,
      crypto.randomUUID(),
      { hasSlot: false },
      (_w, e) => errors.push(e),
      () => {},
    )
    await outcomes.drain(Date.now() + 1000)
    outcomes.close()
    await pool.end()
    const before = timers()
    outcomes.complete('42')
    outcomes.release('43')
    assert.equal(outcomes.pending, 0)
    assert.equal(timers(), before)
    await new Promise((resolve) => setTimeout(resolve, 50))
    assert.deepEqual(errors, [])
  })
})
