/**
 * aizk_pick over the two parts of the queued rows (migration 0016): rows ready since insert
 * (execute_after <= created, in pick order) and delayed rows (execute_after > created: delayed
 * enqueues, retries, requeues), merged in priority desc, id order. "Time passes" by moving a
 * delayed row's execute_after next to now() inside the pick's own transaction (now() is fixed
 * there), so the due instant is tested exactly, not by sleeping.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import type pg from 'pg'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { type PickedJob, pickJobs, planPick } from '../../src/queue/pick.js'
import { retryJobs } from '../../src/queue/retry.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase({ emptied: ['pgqueuer', 'pgqueuer_log'] })

const plan = (eps: [string, number][]) =>
  planPick(
    randomUUID(),
    eps.map(([entrypoint, concurrencyLimit]) => ({ entrypoint, concurrencyLimit })),
  )

/** Pick in one transaction after `due` ran in it (so both see the same now()). */
async function pickAt(due: string, params: unknown[], eps: [string, number][], batch: number): Promise<PickedJob[]> {
  const client = await db.pool.connect()
  try {
    await client.query('BEGIN')
    await client.query(due, params)
    const jobs = await pickJobs(client, plan(eps), batch, 0)
    await client.query('COMMIT')
    return jobs
  } catch (err) {
    await client.query('ROLLBACK')
    throw err
  } finally {
    client.release()
  }
}

/** What the pick must take: ready queued rows of `eps`, priority desc then id (the reference order). */
async function expectedOrder(q: pg.Pool | pg.PoolClient, eps: string[], n: number): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>(
    `SELECT id FROM pgqueuer WHERE status = 'queued' AND entrypoint = ANY ($1) AND execute_after <= now()
      ORDER BY priority DESC, id LIMIT $2`,
    [eps, n],
  )
  return rows.map((r) => r.id)
}

describe('aizk_pick: ready-since-insert and delayed rows', () => {
  it('a delayed row becomes pickable exactly when due, in priority order against ready rows', async () => {
    const [delayed] = await enqueueMany(db.pool, [{ entrypoint: 'd', priority: 5, executeAfter: 3_600_000 }])
    const ready = await enqueueMany(db.pool, [
      { entrypoint: 'd', priority: 9 },
      { entrypoint: 'd', priority: 5 },
      { entrypoint: 'd', priority: 1 },
    ])
    const parts = await db.pool.query<{ id: string; since_insert: boolean }>('SELECT id, execute_after <= created AS since_insert FROM pgqueuer ORDER BY id')
    assert.deepEqual(
      parts.rows.map((r) => r.since_insert),
      [false, true, true, true],
      'a delayed enqueue is in the delayed part',
    )

    // One microsecond before it is due: not taken, and nothing else is held back.
    const early = await pickAt("UPDATE pgqueuer SET execute_after = now() + interval '1 microsecond' WHERE id = $1", [delayed], [['d', 0]], 10)
    assert.deepEqual(
      early.map((j) => j.id),
      ready,
    )
    await db.pool.query("UPDATE pgqueuer SET status = 'queued', queue_manager_id = NULL WHERE status = 'picked'")

    // Due at this very instant: taken between the priority 9 row and the later priority 5 one (lower id).
    const due = await pickAt('UPDATE pgqueuer SET execute_after = now() WHERE id = $1', [delayed], [['d', 0]], 10)
    assert.deepEqual(
      due.map((j) => j.id),
      [ready[0], delayed, ready[1], ready[2]],
    )
    assert.ok((await db.pool.query('SELECT 1 FROM pgqueuer WHERE id = $1 AND execute_after > created', [delayed])).rowCount === 1)
  })

  it('a batch boundary between the parts keeps the order: the best of both, no more', async () => {
    const rows = await enqueueMany(db.pool, [
      { entrypoint: 'b', priority: 3 },
      { entrypoint: 'b', priority: 7, executeAfter: 3_600_000 },
      { entrypoint: 'b', priority: 3 },
      { entrypoint: 'b', priority: 7 },
      { entrypoint: 'b', priority: 3, executeAfter: 3_600_000 },
    ])
    await db.pool.query("UPDATE pgqueuer SET execute_after = created + interval '1 microsecond' WHERE execute_after > created")
    const first = await pickJobs(db.pool, plan([['b', 0]]), 3, 0)
    assert.deepEqual(
      first.map((j) => j.id),
      [rows[1], rows[3], rows[0]],
    )
    const second = await pickJobs(db.pool, plan([['b', 0]]), 3, 0)
    assert.deepEqual(
      second.map((j) => j.id),
      [rows[2], rows[4]],
    )
  })

  it('a retried row waits out its backoff, then comes back in priority order as a new attempt', async () => {
    const ids = await enqueueMany(db.pool, [
      { entrypoint: 'r', priority: 2 },
      { entrypoint: 'r', priority: 2 },
      { entrypoint: 'r', priority: 2 },
    ])
    const p = plan([['r', 0]])
    const [first] = await pickJobs(db.pool, p, 1, 0)
    assert.equal(first.id, ids[0])
    const lastError = { type: 'Error', message: 'again', at: new Date().toISOString(), attempt: 1 }
    assert.equal(await retryJobs(db.pool, p.queueManagerId, [{ id: ids[0] as string, delayMs: 60_000, error: lastError }], { hasSlot: false }), 1)

    const during = await pickAt('SELECT 1', [], [['r', 0]], 10)
    assert.deepEqual(
      during.map((j) => j.id),
      [ids[1], ids[2]],
      'the retried row waits for its backoff',
    )
    await db.pool.query("UPDATE pgqueuer SET status = 'queued', queue_manager_id = NULL WHERE status = 'picked'")

    const due = await pickAt('UPDATE pgqueuer SET execute_after = now() WHERE id = $1 AND execute_after > created', [ids[0]], [['r', 0]], 10)
    assert.deepEqual(
      due.map((j) => j.id),
      ids,
      'due: first again by id among its priority',
    )
    assert.equal(due[0].attempts, 1)
  })

  it('a limited entrypoint takes at most its limit from both parts together', async () => {
    await enqueueMany(db.pool, [
      { entrypoint: 'lim', priority: 1, executeAfter: 3_600_000 },
      { entrypoint: 'lim', priority: 1, executeAfter: 3_600_000 },
      { entrypoint: 'lim', priority: 1 },
      { entrypoint: 'lim', priority: 1 },
    ])
    await db.pool.query("UPDATE pgqueuer SET execute_after = created + interval '1 microsecond' WHERE execute_after > created")
    const jobs = await pickJobs(db.pool, plan([['lim', 3]]), 10, 0)
    assert.deepEqual(
      jobs.map((j) => j.id),
      (await db.pool.query<{ id: string }>('SELECT id FROM pgqueuer ORDER BY id LIMIT 3')).rows.map((r) => r.id),
    )
    assert.equal((await pickJobs(db.pool, plan([['lim', 3]]), 10, 0)).length, 0)
  })

  it('drains any mix of ready, due, not-yet-due and back-dated rows in the reference order', async () => {
    // Deterministic pseudo-random mix over two entrypoints, one worker bound to both, one to one.
    let seed = 7
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return (seed >>> 16) % n
    }
    for (let round = 0; round < 4; round++) {
      const items = Array.from({ length: 120 }, () => {
        const kind = rnd(4)
        const executeAfter = kind === 1 ? 3_600_000 : kind === 2 ? 1_000 : undefined
        return { entrypoint: rnd(2) === 0 ? 'm1' : 'm2', priority: rnd(4), executeAfter }
      })
      await enqueueMany(db.pool, items)
    }
    // Some delayed rows come due (execute_after now past, still later than created) and some
    // rows carry a time already past at insert (execute_after < created: ready since insert).
    await db.pool.query(
      "UPDATE pgqueuer SET execute_after = created + interval '1 millisecond' WHERE execute_after < now() + interval '2 seconds' AND execute_after > created",
    )
    await db.pool.query("UPDATE pgqueuer SET execute_after = created - interval '1 hour' WHERE id % 7 = 0 AND execute_after <= created")
    const { rows: d } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM pgqueuer WHERE execute_after > created AND execute_after <= now()')
    const dueDelayed = d[0].n
    const binds: [string, number][][] = [
      [
        ['m1', 0],
        ['m2', 0],
      ],
      [['m1', 0]],
      [['m2', 0]],
    ]
    let taken = 0
    for (let i = 0; ; i++) {
      const eps = binds[i % binds.length]
      const want = await expectedOrder(
        db.pool,
        eps.map(([e]) => e),
        13,
      )
      const got = await pickJobs(db.pool, plan(eps), 13, 0)
      assert.deepEqual(
        got.map((j) => j.id),
        want,
        `pick ${i} bound to ${eps.map(([e]) => e).join(',')}`,
      )
      taken += got.length
      if (got.length === 0 && (await expectedOrder(db.pool, ['m1', 'm2'], 1)).length === 0) break
    }
    const { rows } = await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pgqueuer WHERE status = 'queued'")
    assert.equal(taken + rows[0].n, 480)
    assert.ok(dueDelayed > 20, `${dueDelayed} delayed rows were due`)
    assert.ok(rows[0].n > 0, 'the rows due in an hour stay')
  })

  it('more delayed rows due at once than one pick reads: still the reference order', async () => {
    await db.pool.query(`INSERT INTO pgqueuer (priority, entrypoint, status, created, execute_after)
      SELECT g % 3, 'many', 'queued', now() - interval '1 hour', now() - interval '1 second' * (g % 50)
        FROM generate_series(1, 5000) g`)
    await enqueueMany(
      db.pool,
      Array.from({ length: 20 }, (_, k) => ({ entrypoint: 'many', priority: k % 4 })),
    )
    await db.pool.query('ANALYZE pgqueuer')
    for (let i = 0; i < 3; i++) {
      const want = await expectedOrder(db.pool, ['many'], 64)
      const got = await pickJobs(db.pool, plan([['many', 0]]), 64, 0)
      assert.deepEqual(
        got.map((j) => j.id),
        want,
      )
    }
  })
})
