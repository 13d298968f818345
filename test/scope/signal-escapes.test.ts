/**
 * Signals are claims, never commands: NOTIFY needs no privilege, so a tenant's scoped transaction
 * can send PgQueuer's `cancellation_event` for any ids. A real worker process runs B's job while
 * A (the app login, inside its own scoped transaction) sends one, and tries to forge the evidence
 * a worker checks (the cancel mark, a `canceled` log row). Evidence an authorized role wrote (the
 * owner deleting the row and logging it `canceled`, as PgQueuer's mark_job_as_cancelled does)
 * still cancels, whoever sends the notification.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { PoolClient } from 'pg'
import { enqueue } from '../../src/queue/enqueue.js'
import { User } from '../../src/scope/user.js'
import { A, fileAppLogin, identity } from '../support/app-login.js'
import { cliEnv } from '../support/commands/env.js'
import { workerFixture } from '../support/commands/worker-fixture.js'
import { waitFor } from '../support/wait-for.js'

const fx = await workerFixture({ env: (url) => cliEnv(url) })
const app = await fileAppLogin(fx.db)
async function asA<T>(fn: (c: PoolClient) => Promise<T>): Promise<T> {
  return User.system([A], identity).transaction(app.scoped, fn)
}

const cancelEvent = (ids: string) =>
  `select pg_notify('ch_pgqueuer', json_build_object('channel', 'ch_pgqueuer', 'type', 'cancellation_event', 'sent_at', now(), 'ids', ${ids})::text)`

async function logOf(id: string): Promise<string[]> {
  const { rows } = await fx.db.pool.query('SELECT status::text FROM pgqueuer_log WHERE job_id = $1 ORDER BY id', [id])
  return rows.map((r) => r.status)
}

describe('a cancellation_event is a claim the worker checks', () => {
  it("A's forged cancellation_event for B's running job: the job runs on and succeeds, no canceled log row", async () => {
    const worker = fx.spawnWorker(['--entrypoint', 'test_sleep'])
    const id = String(await enqueue(fx.db.pool, { entrypoint: 'test_sleep', payload: { ms: 4000 } }))
    await worker.waitFor((e) => e.event === 'job:picked' && e.jobId === id, 'the pick')

    // The evidence a worker checks cannot be forged by the app login.
    const forgedLog = await asA((c) =>
      c.query(`insert into pgqueuer_log (job_id, status, priority, entrypoint) values ($1, 'canceled', 0, 'test_sleep')`, [id]).catch((e: Error) => e),
    )
    assert.match(String(forgedLog), /permission denied/)
    const forgedMark = await asA((c) =>
      c.query(`update pgqueuer set headers = '{"aizk":{"cancelRequestedAt":"2026-01-01T00:00:00Z"}}' where id = $1`, [id]).catch((e: Error) => e),
    )
    assert.match(String(forgedMark), /permission denied/)

    // Every id from 1 to 300 and B's own: the attack the issue reports.
    await asA((c) => c.query(cancelEvent(`(select json_agg(g) from generate_series(1, 300) g)`)))
    await asA((c) => c.query(cancelEvent(`json_build_array($1::bigint)`), [id]))

    const ended = await worker.waitFor((e) => (e.event === 'job:completed' || e.event === 'job:canceled') && e.jobId === id, 'the end of the job')
    assert.equal(ended.event, 'job:completed')
    assert.equal(
      worker.events.some((e) => e.event === 'job:cancel-requested' || e.event === 'job:canceled'),
      false,
    )
    const refused = worker.events.filter((e) => e.event === 'job:cancel-unverified')
    assert.ok(refused.length > 0 && refused.every((e) => JSON.stringify(e.jobIds) === JSON.stringify([id])), JSON.stringify(refused))
    await waitFor('the completion to be written', async () => (await logOf(id)).length > 0)
    assert.deepEqual(await logOf(id), ['successful'])
  })

  it('evidence an authorized role wrote (row deleted, logged canceled) still cancels, whoever notifies', async () => {
    const worker = fx.spawnWorker(['--entrypoint', 'test_cancelable'])
    const id = String(await enqueue(fx.db.pool, { entrypoint: 'test_cancelable', payload: {} }))
    await worker.waitFor((e) => e.event === 'job:picked' && e.jobId === id, 'the pick')
    // What PgQueuer's mark_job_as_cancelled writes, as the owner; the notification then comes from A.
    await fx.db.pool.query(
      `with gone as (delete from pgqueuer where id = $1 returning id, priority, entrypoint)
       insert into pgqueuer_log (job_id, status, priority, entrypoint) select id, 'canceled', priority, entrypoint from gone`,
      [id],
    )
    await asA((c) => c.query(cancelEvent(`json_build_array($1::bigint)`), [id]))
    const canceled = await worker.waitFor((e) => e.event === 'job:canceled' && e.jobId === id, 'the cancel')
    assert.equal(canceled.ran, true)
    assert.deepEqual(await logOf(id), ['canceled'])
  })
})
