/**
 * The pick's durability (docs/job-lifecycle.md#durability-of-a-pick): a pick is a lease and
 * commits without waiting for the WAL flush. A pick lost in a crash leaves its rows `queued`: a
 * late completion of such a job completes nothing and logs nothing.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import { completeJobs } from '../../src/queue/complete.js'
import { enqueue } from '../../src/queue/enqueue.js'
import { pickJobs, planPick } from '../../src/queue/pick.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase({ emptied: ['pgqueuer', 'pgqueuer_log'] })

const ENTRYPOINT = 'durability'
const planFor = (qm: string) => planPick(qm, [{ entrypoint: ENTRYPOINT, concurrencyLimit: 0 }])

/** Run a pick in an open transaction and read the synchronous_commit its commit would use. */
async function pickInTransaction(qm: string): Promise<{ picked: string[]; syncCommit: string }> {
  const client = await db.pool.connect()
  try {
    await client.query('BEGIN')
    const picked = await pickJobs(client, planFor(qm), 8, 0)
    const { rows } = await client.query<{ s: string }>('SELECT current_setting($1) AS s', ['synchronous_commit'])
    await client.query('COMMIT')
    return { picked: picked.map((j) => j.id), syncCommit: rows[0].s }
  } catch (err) {
    await client.query('ROLLBACK')
    throw err
  } finally {
    client.release()
  }
}

async function successRows(id: string): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pgqueuer_log WHERE job_id = $1 AND status = 'successful'", [id])
  return rows[0].n
}

describe('pick durability', () => {
  it('a pick commits without waiting for the WAL flush', async () => {
    const id = (await enqueue(db.pool, { entrypoint: ENTRYPOINT, payload: {} })) as string
    const { picked, syncCommit } = await pickInTransaction(randomUUID())
    assert.deepEqual(picked, [id])
    assert.equal(syncCommit, 'off')
    // The setting was local to the pick's transaction.
    const { rows } = await db.pool.query<{ s: string }>("SELECT current_setting('synchronous_commit') AS s")
    assert.equal(rows[0].s, 'on')
  })

  it('a job whose pick was lost completes nothing; its next pick completes it once', async () => {
    const qm = randomUUID()
    const id = (await enqueue(db.pool, { entrypoint: ENTRYPOINT, payload: {} })) as string
    // A pick the server lost in a crash is a pick that never committed: the row is still queued.
    const client = await db.pool.connect()
    try {
      await client.query('BEGIN')
      assert.equal((await pickJobs(client, planFor(qm), 8, 0)).length, 1)
      await client.query('ROLLBACK')
    } finally {
      client.release()
    }
    assert.equal(await completeJobs(db.pool, qm, [id]), 0)
    assert.equal(await successRows(id), 0)
    const { rows } = await db.pool.query<{ status: string }>('SELECT status FROM pgqueuer WHERE id = $1', [id])
    assert.equal(rows[0].status, 'queued')
    // It runs again: the re-pick and its completion write exactly one successful log row.
    assert.deepEqual((await pickInTransaction(qm)).picked, [id])
    assert.equal(await completeJobs(db.pool, qm, [id]), 1)
    assert.equal(await completeJobs(db.pool, qm, [id]), 0)
    assert.equal(await successRows(id), 1)
  })
})
