/**
 * Holds both ways: a job PgQueuer holds shows in `aizk status` and `aizk requeue` wakes a PgQueuer
 * worker waiting for a NOTIFY (its poll is 10 minutes); a job aizk holds carries a traceback
 * PgQueuer parses as its own TracebackRecord.
 */
import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { enqueue } from '../../src/queue/enqueue.js'
import { runCli } from '../support/cli.js'
import type { TestDatabase } from '../support/db.js'
import { idsOf, pgqEnqueue, pgqOne } from '../support/interop/pgqueuer.js'
import { interopFile, it } from '../support/interop/scenario.js'
import { waitFor } from '../support/wait-for.js'

const { scenario, aizkWorker, pgqWorker } = interopFile()

const cli = (db: TestDatabase, args: string[]) => runCli(args, { env: { AIZK_DATABASE_URL: db.url } })

describe('holds both ways and requeue', () => {
  it('PgQueuer holds a job; aizk status shows it; aizk requeue wakes the waiting PgQueuer worker', async () => {
    const db = await scenario()
    const [id] = idsOf(await pgqEnqueue(db.url, 'py_flaky', [{ json: { n: 1 } }])) as string[]
    const failing = pgqWorker(db, ['py_flaky'], { fail: true, hold: true })
    await failing.waitFor((e) => e.event === 'fail' && String(e.id) === id, 'the failure')
    await waitFor('PgQueuer to hold the job', async () => (await db.pool.query('select status from pgqueuer where id = $1', [id])).rows[0]?.status === 'failed')
    await failing.stop()

    const status = await cli(db, ['status', '--json'])
    assert.equal(status.code, 0, status.stderr)
    const stats = JSON.parse(status.stdout)
    assert.equal(stats.entrypoints.find((e: { entrypoint: string }) => e.entrypoint === 'py_flaky')?.held, 1)
    assert.equal(stats.held.jobs[0].id, id)
    assert.match(String(stats.held.jobs[0].lastError), /failed on purpose/)

    // This worker polls only every 10 minutes: only the requeue's NOTIFY can wake it in time.
    const waiting = pgqWorker(db, ['py_flaky'], { poll: 600 })
    await waiting.queueManagerId
    // Its first dequeue found nothing: its last statement, before it waits, is the queued-work probe.
    await waitFor('PgQueuer to wait for a notification', async () => {
      const { rows } = await db.pool.query(
        "select 1 from pg_stat_activity where datname = current_database() and state = 'idle' and query like '%AS queued_work%'",
      )
      return rows.length > 0
    })
    const requeued = await cli(db, ['requeue', '--entrypoint', 'py_flaky', '--yes', '--json'])
    assert.equal(requeued.code, 0, requeued.stderr)
    const ended = await waiting.waitFor((e) => e.event === 'end' && String(e.id) === id, 'the requeued run', 120_000)
    assert.equal(String(ended.id), id)
  })

  it('aizk holds a job; PgQueuer parses the traceback as its own record and its job_status reads failed', async () => {
    const db = await scenario()
    const id = (await enqueue(db.pool, { entrypoint: 'interop_hold', payload: { x: 1 } })) as string
    const w = aizkWorker(db, ['interop_hold'])
    await w.waitFor((e) => e.event === 'job:held' && e.jobId === id, 'the hold')
    await waitFor('the hold to be written', async () => (await db.pool.query('select status from pgqueuer where id = $1', [id])).rows[0]?.status === 'failed')
    const log = await pgqOne(db.url, ['log', id])
    const failed = (log.rows as { status: string; traceback: Record<string, unknown> | null }[]).find((r) => r.status === 'failed')
    assert.ok(failed, 'PgQueuer reads a failed log row for the job')
    assert.equal(failed.traceback?.exception_type, 'RangeError')
    assert.match(String(failed.traceback?.exception_message), new RegExp(`interop hold of job ${id}`))
    const statuses = await pgqOne(db.url, ['job-status', id])
    assert.deepEqual(statuses.statuses, { [id]: 'failed' })
  })
})
