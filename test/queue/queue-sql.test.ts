/**
 * The queue's SQL on a real database: aizk_pick (order, readiness, bound entrypoints, global
 * limits counting other workers' picks, stale re-picks as attempts), the batched outcomes and
 * their NOTIFY, and the pick's cost with many rows that are not ready.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import pg from 'pg'
import { heartbeat } from '../../src/db/sql/aizk-worker.js'
import { retryDelayMs } from '../../src/queue/backoff.js'
import { completeJobs } from '../../src/queue/complete.js'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { pickJobs, planPick } from '../../src/queue/pick.js'
import { hasSlotColumn, holdJobs, releaseJobs, retryJobs } from '../../src/queue/retry.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase({ emptied: ['pgqueuer', 'pgqueuer_log'] })

const qm = () => randomUUID()
const plan = (id: string, eps: [string, number][]) =>
  planPick(
    id,
    eps.map(([entrypoint, concurrencyLimit]) => ({ entrypoint, concurrencyLimit })),
  )
const lastError = (message: string) => ({ type: 'Error', message, at: new Date().toISOString(), attempt: 1 })

describe('aizk_pick', () => {
  it('picks ready rows of bound entrypoints by priority desc then id, marking them picked', async () => {
    const ids = await enqueueMany(db.pool, [
      { entrypoint: 'a', priority: 1 },
      { entrypoint: 'b', priority: 5 },
      { entrypoint: 'a', priority: 5 },
      { entrypoint: 'a', priority: 9, executeAfter: 60_000 },
      { entrypoint: 'unbound', priority: 99 },
      { entrypoint: 'b', priority: 1 },
    ])
    const me = qm()
    const jobs = await pickJobs(
      db.pool,
      plan(me, [
        ['a', 0],
        ['b', 0],
      ]),
      10,
      0,
    )
    assert.deepEqual(
      jobs.map((j) => j.id),
      [ids[1], ids[2], ids[0], ids[5]],
    )
    const { rows } = await db.pool.query("select id, queue_manager_id, attempts from pgqueuer where status = 'picked' order by id")
    assert.deepEqual(
      rows.map((r) => r.id),
      [ids[0], ids[1], ids[2], ids[5]],
    )
    assert.ok(rows.every((r) => r.queue_manager_id === me && r.attempts === 0))
  })

  it('a global limit counts every picked row, whoever picked it (PgQueuer workers too)', async () => {
    await enqueueMany(
      db.pool,
      Array.from({ length: 10 }, () => ({ entrypoint: 'lim' })),
    )
    // Another worker (say Python PgQueuer) already holds one.
    await db.pool.query("update pgqueuer set status = 'picked', queue_manager_id = gen_random_uuid() where id = (select min(id) from pgqueuer)")
    const jobs = await pickJobs(db.pool, plan(qm(), [['lim', 3]]), 10, 0)
    assert.equal(jobs.length, 2)
    assert.equal((await pickJobs(db.pool, plan(qm(), [['lim', 3]]), 10, 0)).length, 0)
  })

  it('holds the limit under concurrent pickers', async () => {
    await enqueueMany(
      db.pool,
      Array.from({ length: 200 }, () => ({ entrypoint: 'race' })),
    )
    const pools = Array.from({ length: 6 }, () => new pg.Pool({ connectionString: db.url, max: 1 }))
    try {
      const picked = await Promise.all(pools.map((p) => pickJobs(p, plan(qm(), [['race', 4]]), 64, 0)))
      assert.equal(picked.flat().length, 4)
    } finally {
      await Promise.all(pools.map((p) => p.end()))
    }
  })

  it('re-picks a stale pick of a registered aizk worker as a new attempt; a fresh one is left alone', async () => {
    const [stale, fresh] = await enqueueMany(db.pool, [{ entrypoint: 's' }, { entrypoint: 's' }])
    const dead = qm()
    await db.pool.query(
      "insert into aizk_worker (queue_manager_id, host, pid, version, entrypoints, heartbeat) values ($1, 'h', 1, 'v', '{s}', now() - interval '1 minute')",
      [dead],
    )
    await db.pool.query("update pgqueuer set status = 'picked', queue_manager_id = $2, heartbeat = now() - interval '1 minute' where id = $1", [stale, dead])
    await db.pool.query("update pgqueuer set status = 'picked', queue_manager_id = gen_random_uuid() where id = $1", [fresh])
    const me = qm()
    assert.equal((await pickJobs(db.pool, plan(me, [['s', 0]]), 10, 0)).length, 0, 'no stale check asked')
    const jobs = await pickJobs(db.pool, plan(me, [['s', 0]]), 10, 30)
    assert.deepEqual(
      jobs.map((j) => [j.id, j.recovered, j.attempts]),
      [[stale, true, 1]],
    )
    const { rows } = await db.pool.query('select queue_manager_id from pgqueuer where id = $1', [stale])
    assert.equal(rows[0].queue_manager_id, me)
  })

  it('re-picks a pick of an unknown queue manager only past the foreign timeout', async () => {
    const [foreign] = await enqueueMany(db.pool, [{ entrypoint: 'f' }])
    await db.pool.query("update pgqueuer set status = 'picked', queue_manager_id = gen_random_uuid(), heartbeat = now() - interval '1 minute' where id = $1", [
      foreign,
    ])
    const me = qm()
    const eps = [{ entrypoint: 'f', concurrencyLimit: 0 }]
    assert.equal((await pickJobs(db.pool, planPick(me, eps), 10, 30)).length, 0, 'no foreign timeout: never')
    assert.equal((await pickJobs(db.pool, planPick(me, eps, { foreignStaleSeconds: 120 }), 10, 30)).length, 0, 'younger than the foreign timeout')
    const jobs = await pickJobs(db.pool, planPick(me, eps, { foreignStaleSeconds: 45 }), 10, 30)
    assert.deepEqual(
      jobs.map((j) => [j.id, j.recovered]),
      [[foreign, true]],
    )
  })

  it('logs a picked row per pick only when asked (PgQueuer parity)', async () => {
    const [a, b] = await enqueueMany(db.pool, [{ entrypoint: 'lp' }, { entrypoint: 'lp2' }])
    await pickJobs(db.pool, planPick(qm(), [{ entrypoint: 'lp', concurrencyLimit: 0 }]), 10, 0)
    await pickJobs(db.pool, planPick(qm(), [{ entrypoint: 'lp2', concurrencyLimit: 0 }], { logPicks: true }), 10, 0)
    const { rows } = await db.pool.query("select job_id::text as id from pgqueuer_log where status = 'picked' and job_id = any($1::bigint[])", [[a, b]])
    assert.deepEqual(
      rows.map((r) => r.id),
      [b],
    )
  })

  it('keeps its cost flat with 200,000 not-ready rows behind and in front', async () => {
    await db.pool.query(`insert into pgqueuer (priority, entrypoint, status, execute_after)
      select 0, 'flat', 'queued', now() + interval '1 day' from generate_series(1, 100000)`)
    await db.pool.query(`insert into pgqueuer (priority, entrypoint, status)
      select 0, 'other', 'queued' from generate_series(1, 100000)`)
    const ready = await enqueueMany(
      db.pool,
      Array.from({ length: 100 }, () => ({ entrypoint: 'flat' })),
    )
    await db.pool.query('analyze pgqueuer')
    const client = await db.pool.connect()
    try {
      const me = qm()
      const blocks = async () => {
        const { rows } = await client.query('select sum(blks_hit + blks_read)::bigint n from pg_stat_database where datname = current_database()')
        return Number(rows[0].n)
      }
      // Buffer accesses, not time: a pick that walked the 100,000 future rows would touch thousands.
      await client.query('select pg_stat_force_next_flush()')
      const before = await blocks()
      const jobs = await pickJobs(client, plan(me, [['flat', 0]]), 64, 0)
      await client.query('select pg_stat_force_next_flush()')
      const used = (await blocks()) - before
      assert.deepEqual(
        jobs.map((j) => j.id),
        ready.slice(0, 64),
      )
      assert.ok(used < 3000, `a pick touched ${used} buffers`)
      const idleBefore = await blocks()
      await pickJobs(client, plan(me, [['flat', 0]]), 64, 0)
      await pickJobs(client, plan(me, [['flat', 0]]), 64, 0)
      await client.query('select pg_stat_force_next_flush()')
      const idleUsed = (await blocks()) - idleBefore
      assert.ok(idleUsed < 3000, `two picks at the end of the backlog touched ${idleUsed} buffers`)
    } finally {
      client.release()
    }
  })
})

describe('outcomes', () => {
  it('completes many in one statement: rows gone, one successful log row each, only own rows', async () => {
    const ids = await enqueueMany(
      db.pool,
      Array.from({ length: 5 }, () => ({ entrypoint: 'c', priority: 3 })),
    )
    const me = qm()
    await pickJobs(db.pool, plan(me, [['c', 0]]), 4, 0)
    const n = await completeJobs(db.pool, me, ids as string[])
    assert.equal(n, 4, 'the unpicked one is not completed')
    const { rows } = await db.pool.query('select job_id, status, priority, entrypoint from pgqueuer_log order by job_id')
    assert.deepEqual(
      rows,
      ids.slice(0, 4).map((id) => ({ job_id: id, status: 'successful', priority: 3, entrypoint: 'c' })),
    )
    assert.equal(await completeJobs(db.pool, qm(), [ids[4] as string]), 0)
  })

  it('retry and release put rows back to queued and NOTIFY with PgQueuer payload', async () => {
    const listener = new pg.Client({ connectionString: db.url })
    await listener.connect()
    const payloads: string[] = []
    listener.on('notification', (m) => payloads.push(m.payload ?? ''))
    await listener.query('LISTEN ch_pgqueuer')
    try {
      const [r1, r2] = await enqueueMany(db.pool, [{ entrypoint: 'r', headers: { mine: 1 } }, { entrypoint: 'r' }])
      const me = qm()
      await pickJobs(db.pool, plan(me, [['r', 0]]), 2, 0)
      // A round trip on the listening connection delivers every NOTIFY committed before it.
      await listener.query('select 1')
      payloads.length = 0
      assert.equal(await retryJobs(db.pool, me, [{ id: r1 as string, delayMs: 60_000, error: lastError('nope') }], { hasSlot: false }), 1)
      assert.equal(await releaseJobs(db.pool, me, [r2 as string], { hasSlot: false }), 1)
      const { rows } = await db.pool.query(
        "select id, status, attempts, queue_manager_id, headers, execute_after > now() + interval '50 seconds' as later from pgqueuer order by id",
      )
      assert.deepEqual(rows[0].headers.mine, 1)
      assert.equal(rows[0].headers.aizk.lastError.message, 'nope')
      assert.deepEqual([rows[0].status, rows[0].attempts, rows[0].queue_manager_id, rows[0].later], ['queued', 1, null, true])
      assert.deepEqual([rows[1].status, rows[1].attempts, rows[1].queue_manager_id, rows[1].later], ['queued', 0, null, false])
      assert.equal((await db.pool.query('select 1 from pgqueuer_log')).rowCount, 0, 'no log rows')
      await listener.query('select 1')
      const updates = payloads.map((p) => JSON.parse(p)).filter((p) => p.operation === 'update')
      assert.equal(updates.length, 2)
      assert.deepEqual(Object.keys(updates[0]).sort(), ['channel', 'operation', 'sent_at', 'table', 'type'])
      assert.equal(updates[0].type, 'table_changed_event')
      assert.equal(updates[0].table, 'pgqueuer')
    } finally {
      await listener.end()
    }
  })

  it('holds: failed, row kept, one failed log row with the traceback record', async () => {
    const [id] = await enqueueMany(db.pool, [{ entrypoint: 'h', priority: 2 }])
    const me = qm()
    await pickJobs(db.pool, plan(me, [['h', 0]]), 1, 0)
    const record = {
      job_id: id as string,
      timestamp: new Date().toISOString(),
      exception_type: 'Error',
      exception_message: 'x',
      traceback: 'Error: x\n    at here',
      additional_context: null,
    }
    assert.equal(await holdJobs(db.pool, me, [{ id: id as string, attemptsBump: 1, error: lastError('x'), record }], { hasSlot: false }), 1)
    const { rows } = await db.pool.query('select status, attempts, queue_manager_id from pgqueuer')
    assert.deepEqual(rows, [{ status: 'failed', attempts: 1, queue_manager_id: null }])
    const log = await db.pool.query('select status, priority, traceback from pgqueuer_log')
    assert.deepEqual(log.rows, [{ status: 'failed', priority: 2, traceback: record }])
  })

  it('keeps PgQueuer 1.4 slot null when a row leaves picked, where the column exists', async () => {
    assert.equal(await hasSlotColumn(db.pool), false)
    await db.pool.query('alter table pgqueuer add column slot bigint')
    try {
      assert.equal(await hasSlotColumn(db.pool), true)
      const [id] = await enqueueMany(db.pool, [{ entrypoint: 'sl' }])
      const me = qm()
      await pickJobs(db.pool, plan(me, [['sl', 0]]), 1, 0)
      await db.pool.query('update pgqueuer set slot = 1 where id = $1', [id])
      await releaseJobs(db.pool, me, [id as string], { hasSlot: true })
      const { rows } = await db.pool.query('select status, slot from pgqueuer')
      assert.deepEqual(rows, [{ status: 'queued', slot: null }])
    } finally {
      await db.pool.query('alter table pgqueuer drop column slot')
    }
  })

  it('heartbeats every row a worker knows it holds in one statement, and no other', async () => {
    await enqueueMany(db.pool, [{ entrypoint: 'hb' }, { entrypoint: 'hb' }, { entrypoint: 'hb' }])
    const me = qm()
    const picked = await pickJobs(db.pool, plan(me, [['hb', 0]]), 3, 0)
    await db.pool.query("update pgqueuer set heartbeat = now() - interval '1 hour'")
    // The third pick's reply "was lost": the worker does not know it holds that row.
    const known = picked.slice(0, 2).map((j) => j.id)
    assert.deepEqual(await heartbeat(db.pool, me, known), { touched: 2, cancelRequested: [], paused: [], registered: false })
    const { rows } = await db.pool.query("select id::text from pgqueuer where heartbeat > now() - interval '1 minute' order by id")
    assert.deepEqual(
      rows.map((r) => r.id),
      [...known].sort((a, b) => Number(a) - Number(b)),
    )
  })

  it('leaves the heartbeat of rows picked lately as their pick wrote it, and still reports their cancel requests', async () => {
    await enqueueMany(db.pool, [{ entrypoint: 'hf' }, { entrypoint: 'hf' }, { entrypoint: 'hf' }])
    const me = qm()
    const [old, fresh, canceled] = (await pickJobs(db.pool, plan(me, [['hf', 0]]), 3, 0)).map((j) => j.id)
    await db.pool.query("update pgqueuer set heartbeat = now() - interval '1 hour' where id = $1", [old])
    await db.pool.query(
      'update pgqueuer set heartbeat = now() - interval \'10 minutes\', headers = \'{"aizk": {"cancelRequestedAt": "x"}}\' where id = any($1::bigint[])',
      [[fresh, canceled]],
    )
    await db.pool.query('update pgqueuer set headers = null where id = $1', [fresh])
    const beat = await heartbeat(db.pool, me, [old], [fresh, canceled])
    assert.deepEqual(beat, { touched: 1, cancelRequested: [canceled], paused: [], registered: false })
    const { rows } = await db.pool.query<{ id: string; refreshed: boolean }>(
      "select id::text, heartbeat > now() - interval '5 minutes' as refreshed from pgqueuer order by id",
    )
    assert.deepEqual(
      rows.map((r) => [r.id, r.refreshed]),
      [
        [old, true],
        [fresh, false],
        [canceled, false],
      ],
    )
  })
})

describe('retryDelayMs', () => {
  it('grows exponentially, is capped and jittered within [half, full]', () => {
    const s = { retryBaseSeconds: 2, retryMaxSeconds: 600 }
    assert.equal(
      retryDelayMs(1, s, () => 1),
      2000,
    )
    assert.equal(
      retryDelayMs(1, s, () => 0),
      1000,
    )
    assert.equal(
      retryDelayMs(3, s, () => 1),
      8000,
    )
    assert.equal(
      retryDelayMs(30, s, () => 1),
      600_000,
    )
  })
})
