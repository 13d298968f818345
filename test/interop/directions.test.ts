/**
 * Jobs cross in both directions between the real PgQueuer 1.3.2 and aizk, each run exactly once.
 */
import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { idsOf, pgqEnqueue } from '../support/interop/pgqueuer.js'
import { interopFile, it, runsOf } from '../support/interop/scenario.js'
import { waitFor } from '../support/wait-for.js'

const { scenario, aizkWorker, pgqWorker } = interopFile()

describe('PgQueuer 1.3.2 and aizk, both directions', () => {
  it('PgQueuer enqueues, aizk runs each job exactly once with its JSON payload', async () => {
    const db = await scenario()
    const ids = idsOf(
      await pgqEnqueue(
        db.url,
        'interop_json',
        [0, 1, 2, 3, 4].map((n) => ({ json: { n } })),
      ),
    ) as string[]
    const w = aizkWorker(db, ['interop_json'])
    for (const id of ids) await w.waitFor((e) => e.event === 'job:completed' && e.jobId === id, `completion of ${id}`)
    const runs = await runsOf(db.pool, 'interop_json')
    assert.deepEqual(runs.map((r) => r.job_id).sort(), [...ids].sort(), 'each job ran once')
    assert.deepEqual(runs.map((r) => JSON.parse(r.payload_json!).n).sort(), [0, 1, 2, 3, 4])
    // aizk completes in batches (with its next pick): wait for the rows to leave and the log rows.
    await waitFor('the completions to be written', async () => {
      const { rows } = await db.pool.query("select count(*)::int as n from pgqueuer_log where status = 'successful' and job_id = any($1::bigint[])", [ids])
      return rows[0].n === 5
    })
    assert.equal((await db.pool.query('select count(*)::int as n from pgqueuer')).rows[0].n, 0)
  })

  it('aizk enqueues, a PgQueuer worker runs each job exactly once with the JSON bytes', async () => {
    const db = await scenario()
    const worker = pgqWorker(db, ['pgq_side'])
    await worker.queueManagerId
    const ids = (await enqueueMany(
      db.pool,
      [0, 1, 2].map((n) => ({ entrypoint: 'pgq_side', payload: { n } })),
    )) as string[]
    for (const id of ids) await worker.waitFor((e) => e.event === 'end' && String(e.id) === id, `PgQueuer end of ${id}`)
    const starts = worker.events.filter((e) => e.event === 'start')
    assert.deepEqual(starts.map((e) => String(e.id)).sort(), [...ids].sort(), 'each job started once')
    assert.deepEqual(starts.map((e) => JSON.parse(Buffer.from(String(e.payload_hex), 'hex').toString('utf8')).n).sort(), [0, 1, 2])
    await waitFor('PgQueuer to log the completions', async () => {
      const { rows } = await db.pool.query("select count(*)::int as n from pgqueuer_log where status = 'successful' and job_id = any($1::bigint[])", [ids])
      return rows[0].n === 3
    })
  })
})
