/**
 * PgQueuer's own cancel (Queries.mark_job_as_cancelled: a `canceled` log row, the job deleted, then
 * a `cancellation_event`) aborts the job on the aizk worker running it: the worker checks the claim
 * against what PgQueuer wrote and finds it true (docs/security.md).
 */
import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { enqueue } from '../../src/queue/enqueue.js'
import { pgqOne } from '../support/interop/pgqueuer.js'
import { interopFile, it, runsOf } from '../support/interop/scenario.js'
import { waitFor } from '../support/wait-for.js'

const { scenario, aizkWorker } = interopFile()

describe("PgQueuer's cancel on an aizk worker", () => {
  it('mark_job_as_cancelled aborts the running handler; the job keeps the one `canceled` log row PgQueuer wrote', async () => {
    const db = await scenario()
    const id = (await enqueue(db.pool, { entrypoint: 'interop_cancelable', payload: {} })) as string
    const w = aizkWorker(db, ['interop_cancelable'])
    await w.waitFor((e) => e.event === 'job:picked' && e.jobId === id, 'the pick')
    await waitFor('the handler to start', async () => (await runsOf(db.pool, 'interop_cancelable')).length === 1)

    const sent = await pgqOne(db.url, ['cancel', id])
    assert.equal(sent.event, 'canceled')
    await w.waitFor((e) => e.event === 'job:cancel-requested' && e.jobId === id, 'the abort')
    const canceled = await w.waitFor((e) => e.event === 'job:canceled' && e.jobId === id, 'the cancel')
    assert.equal(canceled.ran, true)
    assert.equal(
      w.events.some((e) => e.event === 'job:cancel-unverified'),
      false,
    )
    await waitFor('the handler to end', async () => (await runsOf(db.pool, 'interop_cancelable'))[0].finished !== null)
    const log = await db.pool.query(`select status::text from pgqueuer_log where job_id = $1 order by id`, [id])
    assert.deepEqual(
      log.rows.map((r) => r.status),
      ['canceled'],
    )
    assert.equal((await db.pool.query('select 1 from pgqueuer where id = $1', [id])).rowCount, 0)
  })
})
