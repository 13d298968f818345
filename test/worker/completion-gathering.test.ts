/**
 * Completions are written by statements of their own, beside the picks (docs/job-lifecycle.md#completion):
 * a busy worker gathers them for AIZK_COMPLETION_FLUSH_MS or until 512 wait, then writes them in
 * one statement; an idle worker writes each at once; a drain never waits out a gathering.
 * Real PostgreSQL; the buffer is driven directly, as the worker drives it.
 */
import assert from 'node:assert/strict'
import { afterEach, describe, it } from 'node:test'
import { OutcomeBuffer, type OutcomeCounts } from '../../src/worker/outcomes.js'
import { fileDatabase } from '../support/db.js'
import { waitFor } from '../support/wait-for.js'

const db = await fileDatabase()
const buffers: OutcomeBuffer[] = []

afterEach(async () => {
  for (const b of buffers.splice(0)) b.close()
  await db.pool.query('TRUNCATE pgqueuer, pgqueuer_log')
})

/** `n` rows picked by worker `me`, as a pick leaves them. */
async function picked(me: string, n: number): Promise<string[]> {
  const { rows } = await db.pool.query<{ id: string }>(
    `insert into pgqueuer (priority, entrypoint, payload, status, queue_manager_id, heartbeat)
     select 0, 'test_gather', null, 'picked', $1, now() from generate_series(1, $2) returning id::text`,
    [me, n],
  )
  return rows.map((r) => r.id)
}

const left = async (ids: string[]) => (await db.pool.query('select 1 from pgqueuer where id = any($1::bigint[])', [ids])).rowCount ?? 0
const successes = async (ids: string[]) =>
  (await db.pool.query("select 1 from pgqueuer_log where job_id = any($1::bigint[]) and status = 'successful'", [ids])).rowCount ?? 0

/** `n` picked rows completed through a buffer that gathers for `gatherMs` while `busy`. */
async function completed(n: number, gatherMs: number, busy: boolean): Promise<{ ids: string[]; buffer: OutcomeBuffer; writes: OutcomeCounts[] }> {
  const me = crypto.randomUUID()
  const ids = await picked(me, n)
  const writes: OutcomeCounts[] = []
  const b = new OutcomeBuffer(
    db.pool,
    me,
    { hasSlot: false },
    (_where, err) => assert.fail(String(err)),
    () => {},
    gatherMs,
  )
  b.busy = () => busy
  b.onWritten = (w) => writes.push(w)
  buffers.push(b)
  for (const id of ids) b.complete(id)
  return { ids, buffer: b, writes }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('completions beside the picks', () => {
  it('an idle worker writes a completion at once, however long a busy one would gather', async () => {
    const { ids } = await completed(3, 60_000, false)
    await waitFor('the three completions written', async () => (await left(ids)) === 0, 5000)
    assert.equal(await successes(ids), 3)
  })

  it('a busy worker gathers completions and writes them in one statement once the gathering ends', async () => {
    const { ids, writes } = await completed(10, 2000, true)
    await sleep(200)
    assert.equal(await left(ids), 10, 'written before the gathering ended')
    await waitFor('the gathered completions written', async () => (await left(ids)) === 0, 5000)
    assert.deepEqual(
      writes.map((w) => w.completed),
      [10],
    )
    assert.equal(await successes(ids), 10)
  })

  it('512 gathered completions are written at once, without waiting out the gathering', async () => {
    const { ids, writes } = await completed(512, 60_000, true)
    await waitFor('the 512 completions written', async () => (await left(ids)) === 0, 10_000)
    assert.equal(
      writes.reduce((a, w) => a + w.completed, 0),
      512,
    )
    assert.equal(await successes(ids), 512)
  })

  it('a drain writes what gathers at once', async () => {
    const { ids, buffer: b } = await completed(5, 60_000, true)
    await b.drain(Date.now() + 5000)
    assert.equal(await left(ids), 0)
  })
})
