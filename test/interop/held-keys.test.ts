/**
 * A held key blocks PgQueuer's re-enqueue (aizk's rule, a deliberate difference) while its
 * requeue_jobs runs the held job again.
 */
import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { enqueue } from '../../src/queue/enqueue.js'
import { pgq, pgqOne } from '../support/interop/pgqueuer.js'
import { interopFile, it, runsOf } from '../support/interop/scenario.js'
import { waitFor } from '../support/wait-for.js'

const { scenario, aizkWorker } = interopFile()

describe('held dedupe keys and PgQueuer', () => {
  it("a held key blocks PgQueuer's re-enqueue (DuplicateJobError, or None with skip); requeue_jobs runs it again", async () => {
    const db = await scenario()
    const id = (await enqueue(db.pool, { entrypoint: 'interop_hold', payload: { first: true }, dedupeKey: 'held-key' })) as string
    const w = aizkWorker(db, ['interop_hold'])
    await w.waitFor((e) => e.event === 'job:held' && e.jobId === id, 'the hold')
    await waitFor('the hold to be written', async () => (await db.pool.query('select status from pgqueuer where id = $1', [id])).rows[0]?.status === 'failed')

    const raised = await pgqOne(db.url, ['enqueue', 'interop_hold', '--payload-hex', '7b7d', '--dedupe-key', 'held-key'])
    assert.equal(raised.event, 'duplicate')
    assert.equal(raised.error, 'DuplicateJobError')
    const skipped = await pgqOne(db.url, ['enqueue', 'interop_hold', '--payload-hex', '7b7d', '--dedupe-key', 'held-key', '--skip'])
    assert.deepEqual(skipped.ids, [null])

    await pgq(db.url, ['requeue', id])
    await waitFor('aizk to run the requeued job again', async () => (await runsOf(db.pool, 'interop_hold')).length === 2)
    const runs = await runsOf(db.pool, 'interop_hold')
    assert.deepEqual(
      runs.map((r) => r.job_id),
      [id, id],
    )
  })
})
