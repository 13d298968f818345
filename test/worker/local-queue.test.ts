/**
 * The Worker's local queue in-process, on real PostgreSQL: jobs picked in one batch wait for a
 * handler slot (concurrency 1 here) and keep the meaning of cancel requests, pauses, job
 * timeouts and priority order; an idle worker makes no empty pick per finished job.
 */
import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import type pg from 'pg'
import { z } from 'zod'
import { WorkerEvents } from '../../src/events.js'
import { QueueJob } from '../../src/jobs/queue-job.js'
import { JobRegistry } from '../../src/jobs/registry.js'
import { requestCancel } from '../../src/queue/cancel-request.js'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { pauseEntrypoint } from '../../src/queue/pause.js'
import { parseSettings } from '../../src/settings.js'
import { Worker } from '../../src/worker/worker.js'
import { fileDatabase } from '../support/db.js'

/** Started handlers, by job id, in start order. */
const started: string[] = []
let gate: Promise<void> = Promise.resolve()
let openGate: () => void = () => {}
const closeGate = () => {
  gate = new Promise((resolve) => {
    openGate = resolve
  })
}

/** The first job of a test blocks on the gate: the others wait in the local queue behind it. */
class GateJob extends QueueJob<{ block?: boolean; ms?: number }> {
  static override entrypoint = 'lq_gate'
  static override payload = z.object({ block: z.boolean().optional(), ms: z.number().optional() })
  async handle(payload: { block?: boolean; ms?: number }, ctx: { jobId: string }) {
    started.push(ctx.jobId)
    if (payload.block) await gate
    if (payload.ms) await new Promise((r) => setTimeout(r, payload.ms))
  }
}
class OtherJob extends QueueJob<unknown> {
  static override entrypoint = 'lq_other'
  static override payload = z.any()
  async handle(_payload: unknown, ctx: { jobId: string }) {
    started.push(ctx.jobId)
  }
}

const db = await fileDatabase()
let worker: Worker | undefined
let picks = 0

beforeEach(async () => {
  started.length = 0
  picks = 0
  closeGate()
  await db.pool.query('truncate pgqueuer, pgqueuer_log, aizk_entrypoint_pause')
})
afterEach(async () => {
  openGate()
  await worker?.stop({ timeoutMs: 2000 })
  worker = undefined
})

/** A query's prepared-statement name, else its text. */
function statementOf(args: unknown[]): string {
  if (typeof args[0] === 'string') return args[0]
  const config = args[0] as { text?: string; name?: string }
  return config.name ?? config.text ?? ''
}

type Query = (...args: unknown[]) => Promise<unknown>

/** The pool with its aizk_pick statements sent through `onPick` (given the real query); others pass. */
function pickingPool(pool: pg.Pool, onPick: (query: Query, args: unknown[]) => Promise<unknown>): pg.Pool {
  const query = pool.query.bind(pool) as Query
  return new Proxy(pool, {
    get(target, key, receiver) {
      if (key !== 'query') return Reflect.get(target, key, receiver)
      return (...args: unknown[]) => (statementOf(args).includes('aizk_pick') ? onPick(query, args) : query(...args))
    },
  })
}

/** The test pool, counting aizk_pick statements. */
function countingPool(pool: pg.Pool): pg.Pool {
  return pickingPool(pool, (query, args) => {
    picks++
    return query(...args)
  })
}

/**
 * The test pool, forcing the two pickers' race: a pick is held back until a second one is sent
 * (or 30 ms pass); then the second runs on the server first, takes the top rows (SKIP LOCKED
 * passes the first over them), and the first is answered first. Counts the races it made. With
 * `failEvery` n, every nth race's first pick fails instead, having taken nothing.
 */
let races = 0
function racingPool(pool: pg.Pool, failEvery = 0): pg.Pool {
  let held: { args: unknown[]; resolve: (v: unknown) => void; reject: (e: unknown) => void } | undefined
  return pickingPool(pool, async (query, args) => {
    const first = held
    if (!first) {
      return new Promise((resolve, reject) => {
        const entry = { args, resolve, reject }
        held = entry
        setTimeout(() => {
          if (held !== entry) return
          held = undefined
          query(...args).then(resolve, reject)
          // Wide enough that the second pick arrives in time on a loaded machine too: the tests
          // that race assert that races happened.
        }, 150)
      })
    }
    held = undefined
    races++
    const mine = await query(...args)
    if (failEvery && races % failEvery === 0) first.reject(new Error('the pick failed (test)'))
    else await query(...first.args).then(first.resolve, first.reject)
    await new Promise((r) => setTimeout(r, 10))
    return mine
  })
}

/**
 * 60 short jobs, the i-th of priority `priorityOf(i)`, run at concurrency 1 through racingPool:
 * their ids, the worker's errors, and the order they should have started in (priority
 * descending, then id).
 */
async function runRacing(priorityOf: (i: number) => number, failEvery: number) {
  const items = Array.from({ length: 60 }, (_, i) => ({ entrypoint: 'lq_gate', priority: priorityOf(i), payload: { ms: 2 } }))
  const ids = (await enqueueMany(db.pool, items)) as string[]
  const priority = new Map(ids.map((id, i) => [id, items[i].priority]))
  races = 0
  const events = await startWorker({ AIZK_QUEUE_PICKS_IN_FLIGHT: '2' }, { batchSize: 4, pool: racingPool(db.pool, failEvery) })
  const errors: unknown[] = []
  events.on('worker:error', (e) => errors.push(e))
  await count(events, 'job:completed', 60)
  const inPriorityOrder = [...started].sort((a, b) => priority.get(b)! - priority.get(a)! || Number(a) - Number(b))
  return { ids, errors, inPriorityOrder }
}

async function startWorker(env: Record<string, string>, opts: { batchSize?: number; concurrency?: number; pool?: pg.Pool } = {}): Promise<WorkerEvents> {
  const registry = new JobRegistry()
  registry.register(GateJob)
  registry.register(OtherJob)
  const events = new WorkerEvents()
  worker = new Worker({
    pool: opts.pool ?? countingPool(db.pool),
    registry,
    settings: parseSettings({ AIZK_POLL_INTERVAL_SECONDS: '0.2', AIZK_HEARTBEAT_INTERVAL_SECONDS: '0.2', ...env }),
    events,
    batchSize: opts.batchSize ?? 8,
    concurrency: opts.concurrency ?? 1,
    listen: { connectionString: db.url },
  })
  await worker.start()
  return events
}

/** 20,000 quick jobs drained at concurrency 16 (picks of 64 and up): how many picks were sent while another was on its way. */
async function drainCountingOverlaps(env: Record<string, string>): Promise<{ overlapped: number; sent: number }> {
  let inFlight = 0
  let overlapped = 0
  let sent = 0
  const watchedPool = pickingPool(db.pool, async (query, args) => {
    sent++
    if (inFlight++ > 0) overlapped++
    try {
      return await query(...args)
    } finally {
      inFlight--
    }
  })
  const total = 20000
  await enqueueMany(
    db.pool,
    Array.from({ length: total }, () => ({ entrypoint: 'lq_other', payload: {} })),
  )
  const events = await startWorker({ AIZK_POLL_INTERVAL_SECONDS: '60', ...env }, { batchSize: 64, concurrency: 16, pool: watchedPool })
  await count(events, 'job:completed', total)
  assert.equal(new Set(started).size, total, 'every job ran once')
  return { overlapped, sent }
}

const once = <T>(events: WorkerEvents, name: Parameters<WorkerEvents['on']>[0], match: (e: T) => boolean = () => true) =>
  new Promise<T>((resolve) => events.on(name, ((e: T) => match(e) && resolve(e)) as never))

function count(events: WorkerEvents, name: Parameters<WorkerEvents['on']>[0], n: number): Promise<void> {
  let seen = 0
  return new Promise((resolve) => events.on(name, (() => ++seen === n && resolve()) as never))
}

async function logRows(): Promise<{ job_id: string; status: string }[]> {
  const { rows } = await db.pool.query<{ job_id: string; status: string }>('select job_id::text, status::text from pgqueuer_log order by job_id')
  return rows
}

describe('Worker: the local queue', () => {
  it('a cancel request for a waiting job logs it canceled without running it', async () => {
    const ids = (await enqueueMany(db.pool, [
      { entrypoint: 'lq_gate', priority: 10, payload: { block: true } },
      { entrypoint: 'lq_gate', payload: {} },
      { entrypoint: 'lq_gate', payload: {} },
    ])) as string[]
    const events = await startWorker({})
    const picked = count(events, 'job:picked', 3)
    await picked
    assert.equal(worker?.waiting, 2, 'two jobs wait behind the blocked one')
    const canceled = once<{ jobId: string; ran: boolean }>(events, 'job:canceled')
    await requestCancel(db.pool, { ids: [ids[1]], limit: 10 })
    assert.deepEqual(await canceled, { jobId: ids[1], entrypoint: 'lq_gate', durationMs: 0, ran: false })
    const done = count(events, 'job:completed', 2)
    openGate()
    await done
    await worker?.stop()
    assert.deepEqual(started, [ids[0], ids[2]], 'the canceled job never started')
    assert.deepEqual(await logRows(), [
      { job_id: ids[0], status: 'successful' },
      { job_id: ids[1], status: 'canceled' },
      { job_id: ids[2], status: 'successful' },
    ])
  })

  it('pausing an entrypoint sends its waiting jobs back to queued, no attempt counted, and starts none of them', async () => {
    const ids = (await enqueueMany(db.pool, [
      { entrypoint: 'lq_gate', priority: 10, payload: { block: true } },
      { entrypoint: 'lq_other', priority: 5, payload: {} },
      { entrypoint: 'lq_other', priority: 5, payload: {} },
      { entrypoint: 'lq_gate', payload: {} },
    ])) as string[]
    const events = await startWorker({})
    await count(events, 'job:picked', 4)
    const released = count(events, 'job:released', 2)
    const written = once<{ released: number }>(events, 'outcomes:written', (e) => e.released > 0)
    await pauseEntrypoint(db.pool, 'lq_other')
    await released
    assert.equal((await written).released, 2)
    const { rows } = await db.pool.query<{ id: string; status: string; attempts: number }>(
      "select id::text, status::text, attempts from pgqueuer where entrypoint = 'lq_other' order by pgqueuer.id",
    )
    assert.deepEqual(rows, [
      { id: ids[1], status: 'queued', attempts: 0 },
      { id: ids[2], status: 'queued', attempts: 0 },
    ])
    const done = count(events, 'job:completed', 2)
    openGate()
    await done
    assert.deepEqual(started, [ids[0], ids[3]], 'the paused entrypoint started nothing')
  })

  it('the job timeout counts from the handler start, not from the pick', async () => {
    // Each job runs 400 ms, under the 1 s timeout; the third waited 800 ms before it started.
    const ids = (await enqueueMany(
      db.pool,
      Array.from({ length: 3 }, () => ({ entrypoint: 'lq_gate', payload: { ms: 400 } })),
    )) as string[]
    const events = await startWorker({ AIZK_JOB_TIMEOUT_SECONDS: '1' })
    const failed: unknown[] = []
    events.on('job:retried', (e) => failed.push(e))
    events.on('job:held', (e) => failed.push(e))
    await count(events, 'job:completed', 3)
    await worker?.stop()
    assert.deepEqual(failed, [])
    assert.deepEqual(started, ids, 'picked in one batch, run in pick order')
    assert.deepEqual(
      (await logRows()).map((r) => r.status),
      ['successful', 'successful', 'successful'],
    )
  })

  it('starts waiting jobs in priority order: a higher priority picked later goes first', async () => {
    const first = (await enqueueMany(db.pool, [
      { entrypoint: 'lq_gate', priority: 10, payload: { block: true } },
      { entrypoint: 'lq_gate', priority: 1, payload: {} },
      { entrypoint: 'lq_gate', priority: 9, payload: {} },
    ])) as string[]
    const events = await startWorker({}, { batchSize: 3 })
    await count(events, 'job:picked', 3)
    const pickedLater = count(events, 'job:picked', 1)
    const later = (await enqueueMany(db.pool, [{ entrypoint: 'lq_gate', priority: 100, payload: {} }])) as string[]
    await pickedLater
    assert.equal(worker?.waiting, 3, 'the later job waits in the local queue too')
    const done = count(events, 'job:completed', 4)
    openGate()
    await done
    // The blocker (10) runs; the later 100 starts before the 9 and the 1 that waited.
    assert.deepEqual(started, [first[0], later[0], first[2], first[1]])
  })

  it('starts jobs in priority order when two picks race: the one sent first can come back first with the lower rows', async () => {
    const run = await runRacing((i) => (i * 7) % 10, 0)
    assert.ok(races > 0, 'the pool made the pickers race (the test can fail)')
    assert.deepEqual(started, run.inPriorityOrder)
  })

  it('a racing pick that fails holds nothing back: the jobs of the pick it raced start, in priority order', { timeout: 60_000 }, async () => {
    const run = await runRacing((i) => (i * 3) % 7, 2)
    assert.ok(races >= 2, `${races} races: at least one pick failed (the test can fail)`)
    assert.ok(run.errors.length > 0, 'the failed picks were reported')
    assert.deepEqual([...started].sort(), [...run.ids].sort(), 'every job ran once')
    assert.deepEqual(started, run.inPriorityOrder)
  })

  it('while picks come back full, the second picker picks while the first waits on its round trip', async () => {
    // Quick jobs: a pick's round trip is the bottleneck, so the handlers empty the local queue
    // while a pick is on its way. The poll is a minute away: only a freed slot can wake a picker
    // that waited for room (before, only the first one was woken, and picks ran one at a time).
    const { overlapped, sent } = await drainCountingOverlaps({ AIZK_QUEUE_PICKS_IN_FLIGHT: '2' })
    assert.ok(overlapped >= 3 && overlapped * 4 >= sent, `${overlapped} of ${sent} picks were sent while another was on its way`)
  })

  it('by default one pick is on its way at a time, and a busy queue still drains', async () => {
    const { overlapped, sent } = await drainCountingOverlaps({})
    assert.equal(overlapped, 0, `${overlapped} of ${sent} picks were sent while another was on its way`)
    assert.ok(sent >= 3, `${sent} picks`)
  })

  it('stop() while a pick is on its way: the picker ends when the pick comes back, not after its poll', { timeout: 15_000 }, async () => {
    let pickSent: () => void = () => {}
    const sent = new Promise<void>((resolve) => (pickSent = resolve))
    const slowPool = pickingPool(db.pool, async (query, args) => {
      pickSent()
      await new Promise((r) => setTimeout(r, 300))
      return query(...args)
    })
    await startWorker({ AIZK_POLL_INTERVAL_SECONDS: '60' }, { pool: slowPool })
    await sent
    // The pick comes back empty after stop(): a picker that then slept out its poll (30-90 s)
    // would hold the stop to its deadline (30 s + 5 s), past this test's timeout.
    await worker!.stop({ timeoutMs: 30_000 })
    worker = undefined
  })

  it('an idle worker makes no empty pick per finished job', async () => {
    const events = await startWorker({ AIZK_POLL_INTERVAL_SECONDS: '60' }, { batchSize: 64, concurrency: 4 })
    const done = count(events, 'job:completed', 40)
    await enqueueMany(
      db.pool,
      Array.from({ length: 40 }, () => ({ entrypoint: 'lq_gate', payload: {} })),
    )
    await done
    // The start-up pick, the pick the NOTIFY woke (40 of 64: short, so the queue was empty),
    // maybe one more for a second NOTIFY: never one per finished job.
    assert.ok(picks <= 4, `${picks} picks for 40 jobs`)
  })
})
