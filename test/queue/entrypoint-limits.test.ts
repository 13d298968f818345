/**
 * Limits kept apart from workers, and worker rows that expire (docs/pgqueuer-interop.md#concurrency-limits):
 * a foreign pick (what PgQueuer's dequeue does: an UPDATE to `picked` for a queue manager aizk
 * does not know) is held to the stored limit with no aizk worker registered, to the smallest of
 * the stored and the live workers' limits, never to a dead worker's; registration stores the
 * limit (the latest wins); the cleanup pass removes dead rows that hold no picks.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import { deregisterWorker, heartbeat, registerWorker, removeDeadWorkers } from '../../src/db/sql/aizk-worker.js'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { describeWorker } from '../../src/worker/registration.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase({ emptied: ['pgqueuer', 'pgqueuer_log', 'aizk_worker', 'aizk_entrypoint_limit'] })

/** Register a worker bound to `ep` at `limit` (0 = none); returns its queue manager id. */
async function register(ep: string, limit: number, timeoutSeconds = 30): Promise<string> {
  const id = randomUUID()
  await registerWorker(db.pool, describeWorker(id, [ep], limit > 0 ? { [ep]: limit } : {}, timeoutSeconds))
  return id
}

/** PgQueuer 1.3.2's dequeue in one statement: up to `n` queued rows of `ep` set to picked for a foreign queue manager. */
async function foreignPick(ep: string, n: number): Promise<number> {
  const { rowCount } = await db.pool.query(
    `UPDATE pgqueuer SET status = 'picked', queue_manager_id = $3, heartbeat = now(), updated = now()
      WHERE id IN (SELECT id FROM pgqueuer WHERE entrypoint = $1 AND status = 'queued' ORDER BY priority DESC, id LIMIT $2 FOR UPDATE SKIP LOCKED)`,
    [ep, n, randomUUID()],
  )
  return rowCount ?? 0
}

async function queue(ep: string, n: number): Promise<void> {
  await enqueueMany(
    db.pool,
    Array.from({ length: n }, () => ({ entrypoint: ep })),
  )
}

const stored = async (ep: string) =>
  (await db.pool.query<{ concurrency_limit: number }>('select concurrency_limit from aizk_entrypoint_limit where entrypoint = $1', [ep])).rows[0]
    ?.concurrency_limit

describe('limits apart from workers', () => {
  it("a dead worker's row no longer caps a foreign pick: 5 of 5 picked, not its limit of 3", async () => {
    await db.pool.query(
      `insert into aizk_worker (queue_manager_id, host, pid, version, entrypoints, limits, heartbeat, heartbeat_timeout_seconds)
       values (gen_random_uuid(), 'gone', 1, 'old', '{lim_dead}', '{"lim_dead": 3}', now() - interval '1 minute', 30)`,
    )
    await queue('lim_dead', 5)
    assert.equal(await foreignPick('lim_dead', 5), 5)
  })

  it('a live worker row still caps a foreign pick at its limit', async () => {
    await db.pool.query(
      `insert into aizk_worker (queue_manager_id, host, pid, version, entrypoints, limits, heartbeat_timeout_seconds)
       values (gen_random_uuid(), 'here', 1, 'v', '{lim_live}', '{"lim_live": 3}', 30)`,
    )
    await queue('lim_live', 5)
    assert.equal(await foreignPick('lim_live', 5), 3)
  })

  it('the limit a registration declares is stored and outlives the worker: with no aizk worker a foreign pick of 30 at limit 1 takes 1', async () => {
    const id = await register('lim_kept', 1)
    await deregisterWorker(db.pool, id)
    assert.equal((await db.pool.query('select 1 from aizk_worker')).rowCount, 0, 'no aizk worker registered')
    assert.equal(await stored('lim_kept'), 1)
    await queue('lim_kept', 30)
    assert.equal(await foreignPick('lim_kept', 30), 1)
    assert.equal(await foreignPick('lim_kept', 30), 0, 'the limit is full')
    await db.pool.query("delete from pgqueuer where entrypoint = 'lim_kept' and status = 'picked'")
    assert.equal(await foreignPick('lim_kept', 30), 1, 'a finished job frees the slot')
  })

  it("the latest registration wins the stored limit; a foreign pick is held to the smallest of it and the live workers'", async () => {
    const older = await register('lim_mixed', 2)
    await register('lim_mixed', 5)
    assert.equal(await stored('lim_mixed'), 5, 'the latest registration is stored')
    await queue('lim_mixed', 10)
    assert.equal(await foreignPick('lim_mixed', 10), 2, 'the older worker, still live, declares 2')
    // The older worker dies: its row stops counting, and the stored 5 holds.
    await db.pool.query("update aizk_worker set heartbeat = now() - interval '1 minute' where queue_manager_id = $1", [older])
    assert.equal(await foreignPick('lim_mixed', 10), 3, '5 in all')
  })

  it('a registration that binds the entrypoint without a limit removes the stored one; one that does not bind it leaves it', async () => {
    await register('lim_dropped', 2)
    await register('other_ep', 0)
    assert.equal(await stored('lim_dropped'), 2, 'a worker of other entrypoints changes nothing')
    const unlimited = await register('lim_dropped', 0)
    assert.equal(await stored('lim_dropped'), undefined)
    await deregisterWorker(db.pool, unlimited)
    await db.pool.query("update aizk_worker set heartbeat = now() - interval '1 minute'")
    await queue('lim_dropped', 4)
    assert.equal(await foreignPick('lim_dropped', 4), 4)
  })

  it('the cleanup pass removes dead rows that hold no picks, and keeps live rows and dead ones still holding picks', async () => {
    const live = await register('clean_ep', 0)
    const deadIdle = await register('clean_ep', 0, 2)
    const deadHolding = await register('clean_ep', 0, 2)
    await queue('clean_ep', 1)
    await db.pool.query("update pgqueuer set status = 'picked', queue_manager_id = $1 where entrypoint = 'clean_ep'", [deadHolding])
    await db.pool.query("update aizk_worker set heartbeat = now() - interval '3 seconds' where queue_manager_id <> $1", [live])
    const removed = await removeDeadWorkers(db.pool)
    assert.deepEqual(
      removed.map((r) => r.queueManagerId),
      [deadIdle],
    )
    const { rows } = await db.pool.query<{ id: string }>('select queue_manager_id::text as id from aizk_worker order by id')
    assert.deepEqual(rows.map((r) => r.id).sort(), [live, deadHolding].sort())
    // Its pick re-picked by another worker, the dead row goes on the next pass.
    await db.pool.query("update pgqueuer set queue_manager_id = $1 where entrypoint = 'clean_ep'", [live])
    assert.deepEqual(
      (await removeDeadWorkers(db.pool)).map((r) => r.queueManagerId),
      [deadHolding],
    )
  })

  it("the heartbeat says when the worker's row is gone; registering again restores it", async () => {
    const id = await register('beat_ep', 0)
    assert.equal((await heartbeat(db.pool, id, [])).registered, true)
    await db.pool.query('delete from aizk_worker where queue_manager_id = $1', [id])
    assert.equal((await heartbeat(db.pool, id, [])).registered, false)
    await registerWorker(db.pool, describeWorker(id, ['beat_ep'], {}, 30))
    assert.equal((await heartbeat(db.pool, id, [])).registered, true)
  })
})
