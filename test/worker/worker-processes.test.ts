/**
 * End-to-end behaviour of the queue loop: real `aizk worker` processes (bin/run.js) against a
 * real PostgreSQL database of this file's own, bound to the jobs of test/fixtures/test-jobs.mjs.
 */
import assert from 'node:assert/strict'
import { afterEach, before, describe, it } from 'node:test'
import { enqueue, enqueueMany } from '../../src/queue/enqueue.js'
import { readWorkers } from '../../src/queue/stats-workers.js'
import { fileDatabase } from '../support/db.js'
import { waitFor } from '../support/wait-for.js'
import { FIXTURE_TABLES, fastWorkerEnv, killAll, type SpawnedWorker, spawnWorker } from '../support/worker-process.js'

const db = await fileDatabase()
let workers: SpawnedWorker[] = []
const start = (args: string[] = [], env: Record<string, string> = {}) => {
  const w = spawnWorker(fastWorkerEnv(db.url, env), args)
  workers.push(w)
  return w
}
const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => (await db.pool.query(sql, params)).rows as T[]
const one = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => (await q<T>(sql, params))[0]

before(async () => {
  await db.pool.query(FIXTURE_TABLES)
})
afterEach(async () => {
  await killAll(workers)
  workers = []
  await db.pool.query('TRUNCATE pgqueuer, pgqueuer_log, test_runs, test_counter, aizk_worker')
})

describe('aizk worker processes', () => {
  it('hands its flags to job bodies as settings; --batch-size keeps an explicit AIZK_QUEUE_CONCURRENT_TASKS; --local-queue sizes the local queue', async () => {
    await enqueue(db.pool, { entrypoint: 'test_settings' })
    // 256 is also 4 x the default batch size: the value the old derivation mistook for "unset".
    const w = start(['--entrypoint', 'test_settings', '--batch-size', '3', '--local-queue', '5', '--heartbeat-timeout', '2'], {
      AIZK_QUEUE_CONCURRENT_TASKS: '256',
    })
    await waitFor('the probe ran', async () => (await one<{ n: number }>('select count(*)::int n from test_runs'))!.n === 1)
    const run = await one<{ note: string }>('select note from test_runs')
    assert.deepEqual(JSON.parse(run!.note), { queueBatchSize: 3, queueConcurrentTasks: 256, queueLocalSize: 5, heartbeatTimeoutSeconds: 2 })
    w.kill('SIGTERM')
    assert.equal((await w.exited).code, 0)
  })

  it('runs jobs in priority order, then id order', async () => {
    const items = Array.from({ length: 40 }, (_, i) => ({ entrypoint: 'test_record', priority: (i * 7) % 10, payload: { tag: String(i) } }))
    await enqueueMany(db.pool, items)
    const w = start(['--entrypoint', 'test_record', '--concurrency', '1', '--batch-size', '8'])
    await waitFor('40 runs', async () => (await one<{ n: number }>('select count(*)::int n from pgqueuer_log'))!.n === 40)
    const order = await q<{ id: string; priority: number }>(
      'select r.job_id as id, l.priority from test_runs r join pgqueuer_log l on l.job_id = r.job_id order by r.seq',
    )
    const expected = [...order].sort((a, b) => b.priority - a.priority || Number(a.id) - Number(b.id))
    assert.deepEqual(order, expected)
    w.kill('SIGTERM')
    assert.equal((await w.exited).code, 0)
  })

  it('never has more than 2 picked for a limit of 2 with 4 workers over 2,000 jobs', async () => {
    await q("insert into test_counter (name) values ('limited')")
    const n = 2000
    await enqueueMany(
      db.pool,
      Array.from({ length: n }, (_, i) => ({ entrypoint: 'test_limited', payload: { ms: i % 3 } })),
    )
    let maxPicked = 0
    let sampling = true
    const sampler = (async () => {
      const client = await db.pool.connect()
      try {
        while (sampling) {
          const { rows } = await client.query("select count(*)::int n from pgqueuer where entrypoint = 'test_limited' and status = 'picked'")
          maxPicked = Math.max(maxPicked, rows[0].n)
        }
      } finally {
        client.release()
      }
    })()
    for (let i = 0; i < 4; i++) start(['--entrypoint', 'test_limited', '--batch-size', '16'])
    try {
      await waitFor(
        'all limited jobs done',
        async () => (await one<{ done: number }>("select done from test_counter where name = 'limited'"))!.done >= n,
        180_000,
      )
    } finally {
      sampling = false
      await sampler
    }
    const counter = await one<{ max_running: number; done: number }>("select max_running, done from test_counter where name = 'limited'")
    assert.equal(counter!.done, n)
    assert.ok(maxPicked <= 2, `sampled ${maxPicked} picked at once`)
    assert.ok(counter!.max_running <= 2, `${counter!.max_running} handlers ran at once`)
    assert.equal(counter!.max_running, 2, 'the limit was reached (the test can fail)')
    await waitFor('log rows', async () => (await one<{ n: number }>("select count(*)::int n from pgqueuer_log where status = 'successful'"))!.n === n)
    const pickers = new Set(workers.flatMap((w) => (w.events.some((e) => e.event === 'job:completed') ? [w.child.pid] : [])))
    assert.ok(pickers.size >= 2, 'several workers shared the work')
  })

  it('a worker killed with SIGKILL mid-job: another finishes it after the heartbeat timeout, one success', async () => {
    const id = await enqueue(db.pool, { entrypoint: 'test_slow_first', payload: {} })
    const a = start(['--entrypoint', 'test_slow_first'])
    await a.waitFor((e) => e.event === 'job:picked' && e.jobId === id, 'the first pick')
    await waitFor('the first run started', async () => (await q('select 1 from test_runs where job_id = $1', [id])).length === 1)
    a.kill('SIGKILL')
    await a.exited
    const b = start(['--entrypoint', 'test_slow_first'])
    const recovered = await b.waitFor((e) => e.event === 'job:recovered' && e.jobId === id, 'the recovery')
    assert.equal(recovered.attempts, 1)
    await b.waitFor((e) => e.event === 'job:completed' && e.jobId === id, 'the completion')
    await waitFor('the log row', async () => (await q('select 1 from pgqueuer_log where job_id = $1', [id])).length > 0)
    const log = await q<{ status: string }>('select status from pgqueuer_log where job_id = $1', [id])
    assert.deepEqual(log, [{ status: 'successful' }])
    const runs = await q<{ attempts: number }>('select attempts from test_runs where job_id = $1 order by seq', [id])
    assert.deepEqual(
      runs.map((r) => r.attempts),
      [0, 1],
    )
    assert.equal((await q('select 1 from pgqueuer where id = $1', [id])).length, 0)
  })

  it("a SIGKILLed worker's row stops counting after the heartbeat timeout and the cleanup pass removes it once its pick is recovered", async () => {
    const id = await enqueue(db.pool, { entrypoint: 'test_slow_first', payload: {} })
    const a = start(['--entrypoint', 'test_slow_first'])
    const { queueManagerId: dead } = await a.waitFor((e) => e.event === 'worker:started', 'the start')
    await a.waitFor((e) => e.event === 'job:picked' && e.jobId === id, 'the pick')
    a.kill('SIGKILL')
    await a.exited
    assert.equal((await q('select 1 from aizk_worker where queue_manager_id = $1', [dead])).length, 1, 'the killed worker left its row')
    // FAST_ENV's heartbeat timeout is 1.5 s: past it, status counts the row as gone.
    await waitFor('the row to be judged gone', async () => (await readWorkers(db.pool, 1.5)).every((w) => !w.alive))
    const b = start(['--entrypoint', 'test_slow_first'])
    const { queueManagerId: alive } = await b.waitFor((e) => e.event === 'worker:started', 'the second start')
    await b.waitFor((e) => e.event === 'job:recovered' && e.jobId === id, 'the recovery')
    await waitFor(
      'the cleanup pass to remove the dead row',
      async () => (await q('select 1 from aizk_worker where queue_manager_id = $1', [dead])).length === 0,
    )
    assert.deepEqual(await q('select queue_manager_id::text as id from aizk_worker'), [{ id: alive }], 'the live worker keeps its row')
  })

  it('a job whose worker died on its last attempt is held without running again', async () => {
    const [{ id }] = await q<{ id: string }>(
      `insert into pgqueuer (priority, entrypoint, payload, status, queue_manager_id, heartbeat, attempts)
       values (0, 'test_record', convert_to('{}', 'UTF8'), 'picked', gen_random_uuid(), now() - interval '1 hour', 4) returning id`,
    )
    const w = start(['--entrypoint', 'test_record'])
    const held = await w.waitFor((e) => e.event === 'job:held' && e.jobId === id, 'the hold')
    assert.equal(held.attempts, 5)
    await waitFor('the hold is written', async () => (await q("select 1 from pgqueuer where id = $1 and status = 'failed'", [id])).length === 1)
    const row = await one<{ status: string; attempts: number; queue_manager_id: string | null }>(
      'select status, attempts, queue_manager_id from pgqueuer where id = $1',
      [id],
    )
    assert.deepEqual(row, { status: 'failed', attempts: 5, queue_manager_id: null })
    assert.equal((await q('select 1 from test_runs where job_id = $1', [id])).length, 0)
    await waitFor('the log row', async () => (await q('select 1 from pgqueuer_log where job_id = $1', [id])).length > 0)
    const log = await one<{ traceback: { exception_type: string } }>('select traceback from pgqueuer_log where job_id = $1', [id])
    assert.equal(log!.traceback.exception_type, 'WorkerDiedError')
  })

  it('retries with backoff, then holds with the traceback record; retries write no log row', async () => {
    const id = await enqueue(db.pool, { entrypoint: 'test_fail', payload: { x: 1 } })
    const w = start(['--entrypoint', 'test_fail'])
    const retried = await w.waitFor((e) => e.event === 'job:retried' && e.jobId === id, 'a retry')
    assert.equal(retried.attempts, 1)
    await w.waitFor((e) => e.event === 'job:held' && e.jobId === id, 'the hold')
    await waitFor('the failed log row', async () => (await q('select 1 from pgqueuer_log where job_id = $1', [id])).length > 0)
    const runs = await q<{ attempts: number }>('select attempts from test_runs where job_id = $1 order by seq', [id])
    assert.deepEqual(
      runs.map((r) => r.attempts),
      [0, 1, 2],
    )
    const row = await one<{
      status: string
      attempts: number
      queue_manager_id: string | null
      headers: { aizk: { lastError: { message: string; type: string } } }
    }>('select status, attempts, queue_manager_id, headers from pgqueuer where id = $1', [id])
    assert.equal(row!.status, 'failed')
    assert.equal(row!.attempts, 3)
    assert.equal(row!.queue_manager_id, null)
    assert.equal(row!.headers.aizk.lastError.type, 'TypeError')
    assert.match(row!.headers.aizk.lastError.message, /boom on attempt 2/)
    const log = await q<{ status: string; traceback: Record<string, unknown> }>('select status, traceback from pgqueuer_log where job_id = $1', [id])
    assert.equal(log.length, 1)
    assert.equal(log[0].status, 'failed')
    const tb = log[0].traceback
    assert.deepEqual(Object.keys(tb).sort(), ['additional_context', 'exception_message', 'exception_type', 'job_id', 'timestamp', 'traceback'])
    assert.equal(tb.job_id, id)
    assert.equal(tb.exception_type, 'TypeError')
    assert.match(String(tb.traceback), /boom on attempt 2/)
    assert.ok(!Number.isNaN(Date.parse(String(tb.timestamp))))
  })

  it('holds a payload that fails its schema at once, with the validation issues', async () => {
    const id = await enqueue(db.pool, { entrypoint: 'test_strict', payload: { n: 'not a number' } })
    const w = start(['--entrypoint', 'test_strict'])
    await w.waitFor((e) => e.event === 'job:held' && e.jobId === id, 'the hold')
    await waitFor('the log row', async () => (await q('select 1 from pgqueuer_log where job_id = $1', [id])).length > 0)
    const row = await one<{ status: string; attempts: number }>('select status, attempts from pgqueuer where id = $1', [id])
    assert.deepEqual(row, { status: 'failed', attempts: 1 })
    assert.equal((await q('select 1 from test_runs where job_id = $1', [id])).length, 0)
    const log = await one<{ traceback: { exception_type: string; additional_context: { validationIssues: string[] } } }>(
      'select traceback from pgqueuer_log where job_id = $1',
      [id],
    )
    assert.equal(log!.traceback.exception_type, 'PayloadError')
    assert.match(log!.traceback.additional_context.validationIssues.join('\n'), /^n: /)
  })

  it('refuses a dedupe key while queued, picked or held, and admits it after success', async () => {
    const first = await enqueue(db.pool, { entrypoint: 'test_sleep', payload: { ms: 400 }, dedupeKey: 'k-live' })
    assert.ok(first)
    assert.equal(await enqueue(db.pool, { entrypoint: 'test_sleep', payload: { ms: 1 }, dedupeKey: 'k-live' }), false, 'queued')
    const w = start(['--entrypoint', 'test_sleep', '--entrypoint', 'test_fail'])
    await w.waitFor((e) => e.event === 'job:picked' && e.jobId === first, 'the pick')
    assert.equal(await enqueue(db.pool, { entrypoint: 'test_sleep', payload: { ms: 1 }, dedupeKey: 'k-live' }), false, 'picked')
    await w.waitFor((e) => e.event === 'job:completed' && e.jobId === first, 'the completion')
    await waitFor('the row is gone', async () => (await q('select 1 from pgqueuer where id = $1', [first])).length === 0)
    assert.ok(await enqueue(db.pool, { entrypoint: 'test_sleep', payload: { ms: 1 }, dedupeKey: 'k-live' }), 'after success')

    const failing = await enqueue(db.pool, { entrypoint: 'test_fail', payload: {}, dedupeKey: 'k-held' })
    await w.waitFor((e) => e.event === 'job:held' && e.jobId === failing, 'the hold')
    await waitFor('held in the table', async () => (await q("select 1 from pgqueuer where id = $1 and status = 'failed'", [failing])).length === 1)
    assert.equal(await enqueue(db.pool, { entrypoint: 'test_fail', payload: {}, dedupeKey: 'k-held' }), false, 'held')
  })

  it('SIGTERM lets a short job finish, releases long ones without counting an attempt, exits 0', async () => {
    const short = await enqueue(db.pool, { entrypoint: 'test_sleep', payload: { ms: 300 } })
    const long = await enqueueMany(db.pool, [
      { entrypoint: 'test_sleep', payload: { ms: 600_000 } },
      { entrypoint: 'test_sleep', payload: { ms: 600_000 } },
    ])
    const w = start(['--entrypoint', 'test_sleep', '--shutdown-timeout', '2'])
    await waitFor('three runs started', async () => (await q('select 1 from test_runs')).length === 3)
    w.kill('SIGTERM')
    const { code } = await w.exited
    assert.equal(code, 0, w.stderr())
    const released = w.events.filter((e) => e.event === 'job:released').map((e) => e.jobId)
    assert.deepEqual(released.sort(), [...long].sort())
    const rows = await q<{ id: string; status: string; attempts: number; queue_manager_id: string | null }>(
      'select id, status, attempts, queue_manager_id from pgqueuer order by id',
    )
    assert.deepEqual(
      rows,
      long.map((id) => ({ id, status: 'queued', attempts: 0, queue_manager_id: null })),
    )
    const log = await q<{ job_id: string; status: string }>('select job_id, status from pgqueuer_log')
    assert.deepEqual(log, [{ job_id: short, status: 'successful' }])
    assert.equal((await q('select 1 from aizk_worker')).length, 0, 'deregistered')
  })

  it('a handler that never settles does not block others; the job timeout frees its slot', async () => {
    const hang = await enqueue(db.pool, { entrypoint: 'test_hang', payload: {} })
    const w = start(['--entrypoint', 'test_hang', '--entrypoint', 'test_record', '--concurrency', '2', '--batch-size', '1'], {
      AIZK_JOB_TIMEOUT_SECONDS: '2',
    })
    await w.waitFor((e) => e.event === 'job:picked' && e.jobId === hang, 'the hanging pick')
    await enqueueMany(
      db.pool,
      Array.from({ length: 20 }, (_, i) => ({ entrypoint: 'test_record', payload: { tag: String(i) } })),
    )
    await waitFor('20 records', async () => (await q("select 1 from pgqueuer_log where entrypoint = 'test_record'")).length === 20)
    assert.equal(
      w.events.some((e) => e.event === 'job:held' && e.jobId === hang),
      false,
      'the hanging job was still running meanwhile',
    )
    const held = await w.waitFor((e) => e.event === 'job:held' && e.jobId === hang, 'the timeout')
    assert.match(String(held.error), /did not finish within 2 s/)
  })

  it('survives its connections being cut: reconnects LISTEN and the pool, polls again, loses nothing', async () => {
    const w = start(['--entrypoint', 'test_record'])
    await w.waitFor((e) => e.event === 'worker:started', 'the start')
    await q("select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name like 'aizk%'")
    await w.waitFor((e) => e.event === 'db:lost', 'the loss')
    await w.waitFor((e) => e.event === 'db:reconnected', 'the reconnect')
    const ids = await enqueueMany(
      db.pool,
      Array.from({ length: 5 }, (_, i) => ({ entrypoint: 'test_record', payload: { tag: String(i) } })),
    )
    await waitFor('5 completions', async () => (await q("select 1 from pgqueuer_log where status = 'successful'")).length === 5)
    const runs = await q<{ job_id: string }>('select job_id from test_runs order by job_id')
    assert.deepEqual(
      runs.map((r) => r.job_id),
      ids,
    )
  })
})
