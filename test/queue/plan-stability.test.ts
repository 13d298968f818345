/**
 * The queue's plans when the planner's statistics are stale: the queue analysed while empty, then
 * a burst enqueued before anything analyses it again (autovacuum off, or not there yet)
 * (docs/job-lifecycle.md#plans-that-hold-whatever-the-statistics-say). Every pick must still read
 * its entrypoint's ready rows in pick order from aizk_ready_ep_prio_id_idx, not collect and sort
 * every queued row; every statement that finds a worker's picked rows by id must find them
 * through the primary key, not through the worker's entries in pgqueuer_queue_manager_id_idx.
 * The plans are read from auto_explain, nested statements included.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import type pg from 'pg'
import { heartbeat } from '../../src/db/sql/aizk-worker.js'
import { settleCanceled, verifiedCancels } from '../../src/queue/cancel-request.js'
import { completeJobs } from '../../src/queue/complete.js'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { pickJobs, planPick } from '../../src/queue/pick.js'
import { holdJobIds, releaseJobs, retryJobIds } from '../../src/queue/retry.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase({ emptied: ['pgqueuer', 'pgqueuer_log'] })

/**
 * The queue analysed while empty, its statistics kept so while the test churns it: on a server
 * with autovacuum on (the embedded one), an autoanalyze between the churn and the plans would
 * refresh them (the scratch database is dropped after).
 */
async function analyseEmptyQueue(): Promise<void> {
  await db.pool.query('ALTER TABLE pgqueuer SET (autovacuum_enabled = false)')
  await db.pool.query('ANALYZE pgqueuer')
}

/** Runs `work` on one connection with auto_explain on (inside a transaction rolled back after), returning its result and every plan logged. */
async function explained<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<{ result: T; plans: string[] }> {
  const client = await db.pool.connect()
  const plans: string[] = []
  const onNotice = (n: { message?: string }) => {
    if (n.message?.includes('plan:')) plans.push(n.message)
  }
  client.on('notice', onNotice)
  try {
    await client.query('BEGIN')
    await client.query("LOAD 'auto_explain'")
    for (const set of ['log_min_duration = 0', 'log_nested_statements = on', 'log_level = notice']) await client.query(`SET LOCAL auto_explain.${set}`)
    await client.query('SET LOCAL client_min_messages = notice')
    const result = await work(client)
    // A statement's plan is logged when its portal closes: the next statement closes it.
    await client.query('SELECT 1')
    await client.query('ROLLBACK')
    return { result, plans }
  } finally {
    client.off('notice', onNotice)
    client.release()
  }
}

const pickPlan = (qm: string, entrypoint: string) => planPick(qm, [{ entrypoint, concurrencyLimit: 0 }])

/** Whether a plan sorts what a scan of pgqueuer returns (a Sort node whose input is that scan). */
function sortsQueueRows(plan: string): boolean {
  const lines = plan.split('\n').filter((l) => !/^\s*Sort Key:/.test(l))
  return lines.some((line, i) => /(^|->\s+)Sort\b/.test(line.trim()) && /Scan .*on pgqueuer q\b/.test(lines[i + 1] ?? ''))
}

describe('aizk_pick with statistics of an empty queue', () => {
  it('walks the ready rows in pick order instead of sorting the whole queue', async () => {
    await analyseEmptyQueue()
    const ids = await enqueueMany(
      db.pool,
      Array.from({ length: 50_000 }, (_, i) => ({ entrypoint: 'burst', priority: i % 3 })),
    )
    const { rows } = await db.pool.query<{ reltuples: number }>("SELECT reltuples FROM pg_class WHERE relname = 'pgqueuer'")
    assert.ok(rows[0].reltuples <= 0, 'the statistics still describe an empty table')

    const { result: jobs, plans } = await explained((c) => pickJobs(c, pickPlan(randomUUID(), 'burst'), 4, 0))
    const picked = jobs.map((j) => j.id)
    const expected = await db.pool.query<{ id: string }>("SELECT id FROM pgqueuer WHERE status = 'queued' ORDER BY priority DESC, id LIMIT 4")
    assert.deepEqual(
      picked,
      expected.rows.map((r) => r.id),
      'the pick takes the first rows in pick order',
    )
    assert.equal(ids.length, 50_000)

    const walk = plans.filter((p) => p.includes('ORDER BY q.priority DESC, q.id') && p.includes('q.execute_after <= q.created'))
    assert.ok(walk.length > 0, `the ready walk's plan was logged (plans seen: ${plans.length})`)
    for (const plan of walk) assert.match(plan, /aizk_ready_ep_prio_id_idx/, `the ready walk reads the ready index:\n${plan}`)
    for (const plan of plans) {
      assert.ok(!sortsQueueRows(plan), `no statement of the pick sorts rows of the queue:\n${plan}`)
      assert.doesNotMatch(plan, /JIT:/, `no statement of the pick is costed high enough to be compiled:\n${plan}`)
    }
  })
})

describe("statements that find a worker's picked rows, with statistics of an empty queue", () => {
  it("find them by id through the primary key, not through the worker's entries of the queue_manager_id index", async () => {
    await analyseEmptyQueue()
    const qm = randomUUID()
    // 20,000 jobs run by one worker, each round its own transactions: their index entries stay, dead.
    for (let round = 0; round < 10; round++) {
      await enqueueMany(
        db.pool,
        Array.from({ length: 2000 }, () => ({ entrypoint: 'history' })),
      )
      const done = await pickJobs(db.pool, pickPlan(qm, 'history'), 2000, 0)
      assert.equal(
        await completeJobs(
          db.pool,
          qm,
          done.map((j) => j.id),
        ),
        2000,
      )
    }
    await enqueueMany(
      db.pool,
      Array.from({ length: 60 }, () => ({ entrypoint: 'history' })),
    )
    const held = (await pickJobs(db.pool, pickPlan(qm, 'history'), 60, 0)).map((j) => j.id)
    const { rows } = await db.pool.query<{ reltuples: number }>("SELECT reltuples FROM pg_class WHERE relname = 'pgqueuer'")
    assert.ok(rows[0].reltuples <= 0, 'the statistics still describe an empty table')

    const error = { type: 'Error', message: 'boom', at: new Date().toISOString(), attempt: 1 }
    const record = (id: string) => ({
      job_id: id,
      timestamp: error.at,
      exception_type: 'Error',
      exception_message: 'boom',
      traceback: '',
      additional_context: null,
    })
    const o = { hasSlot: false }
    // What `aizk cancel --running` writes: only marked rows are settled as canceled.
    await db.pool.query(`UPDATE pgqueuer SET headers = '{"aizk":{"cancelRequestedAt":"2026-01-01T00:00:00Z"}}' WHERE id = ANY ($1::bigint[])`, [
      held.slice(40, 50),
    ])
    const writes: [string, (c: pg.PoolClient) => Promise<unknown>][] = [
      ['completion', (c) => completeJobs(c, qm, held.slice(0, 10))],
      [
        'retry',
        (c) =>
          retryJobIds(
            c,
            qm,
            held.slice(10, 20).map((id) => ({ id, delayMs: 0, error })),
            o,
          ),
      ],
      [
        'hold',
        (c) =>
          holdJobIds(
            c,
            qm,
            held.slice(20, 30).map((id) => ({ id, attemptsBump: 1, error, record: record(id) })),
            o,
          ),
      ],
      ['release', (c) => releaseJobs(c, qm, held.slice(30, 40), o)],
      ['cancel claim', (c) => verifiedCancels(c, qm, held.slice(40, 50))],
      ['cancel', (c) => settleCanceled(c, qm, held.slice(40, 50))],
      ['heartbeat', (c) => heartbeat(c, qm, held.slice(50, 55), held.slice(55, 60))],
    ]
    for (const [what, write] of writes) {
      const { result, plans } = await explained(write)
      const touched = Array.isArray(result) ? result.length : typeof result === 'number' ? result : (result as { touched: number }).touched
      assert.ok(touched > 0, `the ${what} found the worker's rows`)
      const reads = plans.filter((p) => /on pgqueuer(?!\w)/.test(p) && /(DELETE FROM|UPDATE|FROM) pgqueuer/.test(p))
      assert.ok(reads.length > 0, `the ${what}'s plan was logged: ${plans.join('\n')}`)
      for (const plan of reads) {
        assert.doesNotMatch(
          plan,
          /pgqueuer_queue_manager_id_idx|aizk_picked_heartbeat_idx|pgqueuer_updated_id_id1_idx/,
          `the ${what} does not read the worker's index entries:\n${plan}`,
        )
        assert.match(plan, /pgqueuer_pkey/, `the ${what} finds its rows by id:\n${plan}`)
      }
    }
  })
})
