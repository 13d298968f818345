/**
 * Waiting for completion end to end: `aizk enqueue --wait` against a real spawned worker (exit 0
 * on success, 8 held, 9 canceled, 10 timed out) and the library's waitForJobs over many ids, on a
 * database of this file's own.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createPool } from '../../src/db/connect.js'
import { enqueue, enqueueMany } from '../../src/queue/enqueue.js'
import { cancelQueued } from '../../src/queue/remove-jobs.js'
import { waitForJobs } from '../../src/queue/wait-for-jobs.js'
import { runCli } from '../support/cli.js'
import { workerFixture } from '../support/commands/worker-fixture.js'
import { waitFor } from '../support/wait-for.js'
import { TEST_JOBS } from '../support/worker-process.js'

const fx = await workerFixture({ env: (url) => ({ AIZK_DATABASE_URL: url, AIZK_WORKER_JOB_MODULES: TEST_JOBS }) })

describe('aizk enqueue --wait', () => {
  it('no worker: exit 10 after --timeout, the job still queued', async () => {
    const res = await runCli(['enqueue', 'test_noop', '--payload', '{}', '--wait', '--timeout', '1s', '--json'], { env: fx.env })
    assert.equal(res.code, 10, res.stderr)
    const doc = JSON.parse(res.stdout)
    assert.equal(doc.error.code, 'wait_timeout')
    assert.equal(doc.error.details.status, 'timeout')
    assert.equal(doc.error.details.lastSeen, 'queued')
    const { rows } = await fx.db.pool.query('SELECT status::text FROM pgqueuer WHERE id = $1', [doc.error.details.id])
    assert.deepEqual(rows, [{ status: 'queued' }])
  })

  it('a job canceled while waited on: exit 9', async () => {
    const waiting = runCli(['enqueue', 'test_noop', '--payload', '{"n":1}', '--wait', '--timeout', '60s'], { env: fx.env })
    const row = await waitFor(
      'the enqueued row',
      async () => (await fx.db.pool.query<{ id: string }>("SELECT id::text FROM pgqueuer WHERE entrypoint = 'test_noop'")).rows[0],
    )
    const canceled = await runCli(['cancel', '--id', row.id, '--yes'], { env: fx.env })
    assert.equal(canceled.code, 0, canceled.stderr)
    const res = await waiting
    assert.equal(res.code, 9, res.stderr)
    assert.match(res.stderr, new RegExp(`job ${row.id} was canceled before it succeeded`))
  })

  it('a worker runs it: exit 0 and the outcome in JSON', async () => {
    fx.spawnWorker([])
    const res = await runCli(['enqueue', 'test_noop', '--payload', '{}', '--wait', '--timeout', '60s', '--json'], { env: fx.env })
    assert.equal(res.code, 0, res.stderr)
    const doc = JSON.parse(res.stdout)
    assert.deepEqual(doc.outcome, { id: doc.id, status: 'successful' })
    const text = await runCli(['enqueue', 'test_noop', '--payload', '{}', '--wait'], { env: fx.env })
    assert.equal(text.code, 0, text.stderr)
    assert.match(text.stdout, /^enqueued job (\d+) \(test_noop, priority 0\)\njob \1 succeeded$/m)
  })

  it('a failing job held after its attempts: exit 8 naming the held job', async () => {
    fx.spawnWorker([])
    const res = await runCli(['enqueue', 'test_fail', '--payload', '{}', '--wait', '--timeout', '60s'], { env: fx.env })
    assert.equal(res.code, 8, res.stderr)
    const id = res.stdout.match(/enqueued job (\d+)/)?.[1]
    assert.ok(id, res.stdout)
    assert.match(res.stderr, new RegExp(`job ${id} failed and is held`))
    assert.match(res.stderr, new RegExp(`aizk requeue --id ${id}`))
    const { rows } = await fx.db.pool.query('SELECT status::text, attempts FROM pgqueuer WHERE id = $1', [id])
    assert.deepEqual(rows, [{ status: 'failed', attempts: 3 }])
  })

  it('--timeout without --wait, or a bad duration, is a usage error that writes nothing', async () => {
    const alone = await runCli(['enqueue', 'test_noop', '--payload', '{}', '--timeout', '5s'], { env: fx.env })
    assert.equal(alone.code, 2, alone.stderr)
    const bad = await runCli(['enqueue', 'test_noop', '--payload', '{}', '--wait', '--timeout', 'soon'], { env: fx.env })
    assert.equal(bad.code, 2, bad.stderr)
    assert.match(bad.stderr, /--timeout "soon" is not a duration/)
    const { rows } = await fx.db.pool.query('SELECT count(*)::int AS n FROM pgqueuer')
    assert.equal(rows[0].n, 0)
  })
})

describe('waitForJobs', () => {
  it('resolves many ids to their final status: successful, held, canceled, missing; in the order given', async () => {
    const pool = createPool(fx.db.url)
    try {
      const ok = (await enqueueMany(
        pool,
        Array.from({ length: 300 }, (_, i) => ({ entrypoint: 'test_noop', payload: { i } })),
      )) as string[]
      const failing = (await enqueueMany(
        pool,
        Array.from({ length: 3 }, () => ({ entrypoint: 'test_fail', payload: {} })),
      )) as string[]
      const doomed = String(await enqueue(pool, { entrypoint: 'test_sleep', payload: { ms: 1 }, executeAfter: new Date(Date.now() + 3_600_000) }))
      const ids = [...failing, doomed, ...ok, '999999999']
      const waiting = waitForJobs(pool, ids, { timeoutMs: 60_000 })
      fx.spawnWorker([])
      await cancelQueued(pool, { ids: [doomed], limit: 1 })
      const outcomes = await waiting
      assert.deepEqual(
        outcomes.map((o) => o.id),
        ids,
      )
      const byStatus = new Map<string, string[]>()
      for (const o of outcomes) byStatus.set(o.status, [...(byStatus.get(o.status) ?? []), o.id])
      assert.deepEqual(byStatus.get('held'), failing)
      assert.deepEqual(byStatus.get('canceled'), [doomed])
      assert.deepEqual(byStatus.get('successful'), ok)
      assert.deepEqual(byStatus.get('missing'), ['999999999'])
    } finally {
      await pool.end()
    }
  })

  it('without a worker the timeout resolves the rest to timeout with the status last seen; polling alone still sees a completion', async () => {
    const id = String(await enqueue(fx.db.pool, { entrypoint: 'test_noop', payload: {} }))
    const [timedOut] = await waitForJobs(fx.db.pool, [id], { timeoutMs: 300, listen: false })
    assert.deepEqual(timedOut, { id, status: 'timeout', lastSeen: 'queued' })
    const waiting = waitForJobs(fx.db.pool, [id], { timeoutMs: 60_000, listen: false })
    fx.spawnWorker([])
    assert.deepEqual(await waiting, [{ id, status: 'successful' }])
    await assert.rejects(waitForJobs(fx.db.pool, ['12x']), /not a job id: 12x/)
  })
})
