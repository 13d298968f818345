/**
 * Rows the real PgQueuer 1.3.2 writes land in the part of aizk's pick they belong to (migration
 * 0016): its enqueue without a delay sets execute_after = created (ready since insert), with a
 * delay later than created, and its requeue sets execute_after = NOW() (delayed, due at once).
 * aizk's pick takes them all in priority desc, id order, each when due.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe } from 'node:test'
import { type PickedJob, pickJobs, planPick } from '../../src/queue/pick.js'
import type { TestDatabase } from '../support/db.js'
import { idsOf, pgqEnqueue, pgqOne } from '../support/interop/pgqueuer.js'
import { interopFile, it } from '../support/interop/scenario.js'

const { scenario } = interopFile()

const plan = (ep: string) => planPick(randomUUID(), [{ entrypoint: ep, concurrencyLimit: 0 }])

async function pickAfter(db: TestDatabase, sql: string, params: unknown[], ep: string): Promise<PickedJob[]> {
  const client = await db.pool.connect()
  try {
    await client.query('BEGIN')
    await client.query(sql, params)
    const jobs = await pickJobs(client, plan(ep), 10, 0)
    await client.query('COMMIT')
    return jobs
  } finally {
    client.release()
  }
}

const sinceInsert = async (db: TestDatabase, ids: string[]) =>
  (await db.pool.query<{ s: boolean }>('SELECT execute_after <= created AS s FROM pgqueuer WHERE id = ANY ($1::bigint[]) ORDER BY id', [ids])).rows.map(
    (r) => r.s,
  )

describe('PgQueuer-written rows in the two parts of the pick', () => {
  it('PgQueuer enqueues with and without a delay: aizk picks each when due, in priority order', async () => {
    const db = await scenario()
    const ids = idsOf(
      await pgqEnqueue(db.url, 'pgq_delayed', [
        { json: { n: 0 }, priority: 1 },
        { json: { n: 1 }, priority: 5, delaySeconds: 3600 },
        { json: { n: 2 }, priority: 5 },
        { json: { n: 3 }, priority: 9 },
      ]),
    ) as string[]
    assert.deepEqual(await sinceInsert(db, ids), [true, false, true, true], 'no delay: execute_after = created, as aizk relies on')

    const early = await pickAfter(db, 'SELECT 1', [], 'pgq_delayed')
    assert.deepEqual(
      early.map((j) => j.id),
      [ids[3], ids[2], ids[0]],
    )
    await db.pool.query("UPDATE pgqueuer SET status = 'queued', queue_manager_id = NULL WHERE status = 'picked'")

    const due = await pickAfter(db, 'UPDATE pgqueuer SET execute_after = now() WHERE id = $1', [ids[1]], 'pgq_delayed')
    assert.deepEqual(
      due.map((j) => j.id),
      [ids[3], ids[1], ids[2], ids[0]],
    )
  })

  it("PgQueuer's requeue puts held rows in the delayed part, due at once, merged by priority with fresh rows", async () => {
    const db = await scenario()
    const held = idsOf(
      await pgqEnqueue(db.url, 'pgq_requeued', [
        { json: { n: 0 }, priority: 2 },
        { json: { n: 1 }, priority: 7 },
      ]),
    ) as string[]
    await db.pool.query("UPDATE pgqueuer SET status = 'failed' WHERE id = ANY ($1::bigint[])", [held])
    const fresh = idsOf(
      await pgqEnqueue(db.url, 'pgq_requeued', [
        { json: { n: 2 }, priority: 7 },
        { json: { n: 3 }, priority: 2 },
      ]),
    ) as string[]
    await pgqOne(db.url, ['requeue', ...held])
    assert.deepEqual(await sinceInsert(db, held), [false, false], 'requeued: execute_after = NOW(), later than created')

    const jobs = await pickAfter(db, 'SELECT 1', [], 'pgq_requeued')
    assert.deepEqual(
      jobs.map((j) => j.id),
      [held[1], fresh[0], held[0], fresh[1]],
    )
  })
})
