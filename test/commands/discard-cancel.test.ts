/**
 * `aizk discard` and `aizk cancel` end to end: the real CLI (bin/run.js) on a database of this
 * file's own; cancel of a running job through a real worker process whose handler waits on its
 * abort signal. Bad input exits with its documented code and changes no row.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { enqueue } from '../../src/queue/enqueue.js'
import { binPath, cleanEnv, runCli } from '../support/cli.js'
import { cliEnv } from '../support/commands/env.js'
import { insertHeld, insertQueued } from '../support/commands/queue-rows.js'
import { workerFixture } from '../support/commands/worker-fixture.js'
import { runInPty, stripAnsi } from '../support/pty.js'
import { waitFor } from '../support/wait-for.js'

const fx = await workerFixture({ env: (url) => cliEnv(url) })

/** Every row of both tables, so a test can assert that a refused command changed nothing. */
async function snapshot(): Promise<string> {
  const rows = await fx.db.pool.query('SELECT id, status, entrypoint, headers, updated FROM pgqueuer ORDER BY id')
  const log = await fx.db.pool.query('SELECT id, job_id, status FROM pgqueuer_log ORDER BY id')
  return JSON.stringify([rows.rows, log.rows])
}

async function statuses(): Promise<Record<string, number>> {
  const { rows } = await fx.db.pool.query(`SELECT status::text, count(*)::int AS n FROM pgqueuer GROUP BY 1`)
  return Object.fromEntries(rows.map((r) => [r.status, r.n]))
}

async function logOf(id: string) {
  const { rows } = await fx.db.pool.query('SELECT status::text, entrypoint, traceback FROM pgqueuer_log WHERE job_id = $1 ORDER BY id', [id])
  return rows
}

describe('aizk discard', () => {
  it('--dry-run lists the held jobs and changes nothing', async () => {
    const ids = await insertHeld(fx.db.pool, 'cli_noop', 3, { cycles: 2 })
    await insertQueued(fx.db.pool, 'cli_noop', 2)
    const before = await snapshot()
    const res = await runCli(['discard', '--dry-run', '--json'], { env: fx.env })
    assert.equal(res.code, 0, res.stderr)
    assert.deepEqual(JSON.parse(res.stdout), {
      dryRun: true,
      matching: 3,
      count: 3,
      remaining: 3,
      discarded: ids.map((id) => ({ id, entrypoint: 'cli_noop', attempts: 5, cycles: 2 })),
    })
    assert.equal(await snapshot(), before)
  })

  it('without a terminal it needs --yes: exit 2 and nothing written', async () => {
    await insertHeld(fx.db.pool, 'cli_noop', 2)
    const before = await snapshot()
    const res = await runCli(['discard'], { env: fx.env })
    assert.equal(res.code, 2)
    assert.match(res.stderr, /error: discard of 2 held job\(s\): not confirmed/)
    assert.match(res.stderr, /pass --yes/)
    const json = await runCli(['discard', '--json'], { env: fx.env })
    assert.equal(json.code, 2)
    assert.equal(JSON.parse(json.stdout).error.exitCode, 2)
    assert.equal(await snapshot(), before)
  })

  it('deletes the oldest held jobs of the filter, one `deleted` log row each, and frees their dedupe keys', async () => {
    const a = await insertHeld(fx.db.pool, 'cli_noop', 4, { dedupePrefix: 'k', cycles: 1 })
    const b = await insertHeld(fx.db.pool, 'cli_strict', 2)
    await insertQueued(fx.db.pool, 'cli_noop', 1)
    const res = await runCli(['discard', '--entrypoint', 'cli_noop', '--limit', '3', '--yes', '--json'], { env: fx.env })
    assert.equal(res.code, 0, res.stderr)
    const doc = JSON.parse(res.stdout)
    assert.deepEqual(
      doc.discarded.map((r: { id: string }) => r.id),
      a.slice(0, 3),
    )
    assert.deepEqual([doc.matching, doc.count, doc.remaining], [4, 3, 1])
    assert.deepEqual(await statuses(), { failed: 3, queued: 1 })
    const log = await logOf(a[0])
    assert.equal(log.length, 1)
    assert.equal(log[0].status, 'deleted')
    assert.equal(log[0].traceback.exception_type, 'JobDiscarded')
    assert.equal(log[0].traceback.job_id, Number(a[0]))
    assert.match(log[0].traceback.exception_message, /^discarded by \S+@\S+$/)
    assert.deepEqual(log[0].traceback.additional_context, { action: 'discarded', by: log[0].traceback.additional_context.by, attempts: 5, cycles: 1 })
    // The key of a discarded job is free again; the one still held keeps its own.
    const again = await enqueue(fx.db.pool, { entrypoint: 'cli_noop', payload: {}, dedupeKey: 'k1' })
    assert.notEqual(again, false)
    assert.equal(await enqueue(fx.db.pool, { entrypoint: 'cli_noop', payload: {}, dedupeKey: 'k4' }), false)
    const text = await runCli(['discard', '-e', 'cli_strict', '--yes'], { env: fx.env })
    assert.equal(text.code, 0, text.stderr)
    assert.match(text.stdout, new RegExp(`\\s${b[0]}\\s+cli_strict\\s+5\\s+0`))
    assert.match(text.stdout, /discarded 2 job\(s\): cli_strict 2/)
  })

  it('--older-than and --id pick the rows; an id that is not held exits 5 and writes nothing', async () => {
    const old = await insertHeld(fx.db.pool, 'cli_noop', 2)
    const young = await insertHeld(fx.db.pool, 'cli_noop', 2)
    await fx.db.pool.query(`UPDATE pgqueuer SET updated = now() - interval '3 hours' WHERE id = ANY($1::bigint[])`, [old])
    const aged = await runCli(['discard', '--older-than', '2h', '--yes', '--json'], { env: fx.env })
    assert.equal(aged.code, 0, aged.stderr)
    assert.deepEqual(
      JSON.parse(aged.stdout).discarded.map((r: { id: string }) => r.id),
      old,
    )
    const [queued] = (
      await fx.db.pool.query<{ id: string }>(`INSERT INTO pgqueuer (priority, entrypoint, status) VALUES (0, 'cli_noop', 'queued') RETURNING id::text`)
    ).rows
    const before = await snapshot()
    const bad = await runCli(['discard', '--id', young[0], '--id', queued.id, '--id', '999999', '--yes', '--json'], { env: fx.env })
    assert.equal(bad.code, 5)
    const err = JSON.parse(bad.stdout).error
    assert.equal(err.code, 'not_found')
    assert.match(err.message, new RegExp(`not held: job ${queued.id} \\(queued\\), job 999999 \\(no such job\\)`))
    assert.equal(await snapshot(), before)
    const one = await runCli(['discard', '--id', young[1], '--yes', '--json'], { env: fx.env })
    assert.equal(one.code, 0, one.stderr)
    assert.deepEqual(
      JSON.parse(one.stdout).discarded.map((r: { id: string }) => r.id),
      [young[1]],
    )
  })

  it('rejects malformed flags with exit 2 before touching anything', async () => {
    await insertHeld(fx.db.pool, 'cli_noop', 2)
    const before = await snapshot()
    for (const [args, message] of [
      [['--older-than', 'soon'], /--older-than "soon" is not a duration/],
      [['--limit', '0'], /--limit must be a whole number of at least 1/],
      [['--id', 'abc'], /--id "abc" is not a job id/],
      [['--entrypoint', 'Bad-Name'], /"Bad-Name" is not an entrypoint name/],
      [['--bogus'], /Nonexistent flag: --bogus/],
    ] as const) {
      const res = await runCli(['discard', ...args, '--yes'], { env: fx.env })
      assert.equal(res.code, 2, `${args.join(' ')}: ${res.stderr}`)
      assert.match(res.stderr, message)
      assert.match(res.stderr, /^error: /m)
    }
    assert.equal(await snapshot(), before)
  })

  it('asks on a terminal: no keeps the jobs, yes deletes them', async () => {
    await insertHeld(fx.db.pool, 'cli_noop', 2)
    for (const [answer, left] of [
      ['n', 2],
      ['y', 0],
    ] as const) {
      const pty = runInPty([process.execPath, binPath, 'discard'], { env: cleanEnv(fx.env) })
      try {
        await waitFor('the question', async () => /Delete 2 held job\(s\) for good\? \[y\/N\]/.test(stripAnsi(pty.output())))
        pty.child.stdin?.write(`${answer}\r`)
        assert.equal(await pty.exited, 0, pty.output())
      } finally {
        pty.child.kill()
      }
      assert.equal((await statuses()).failed ?? 0, left)
      assert.match(stripAnsi(pty.output()), answer === 'n' ? /not confirmed: nothing discarded/ : /discarded 2 job\(s\)/)
    }
  })
})

describe('aizk cancel', () => {
  it('removes queued jobs with a `canceled` log row and leaves held and picked ones', async () => {
    await insertQueued(fx.db.pool, 'cli_noop', 3)
    await insertQueued(fx.db.pool, 'cli_strict', 1)
    await insertHeld(fx.db.pool, 'cli_noop', 1)
    await fx.db.pool.query(`UPDATE pgqueuer SET status = 'picked', queue_manager_id = gen_random_uuid() WHERE entrypoint = 'cli_strict'`)
    const dry = await runCli(['cancel', '-e', 'cli_noop', '-e', 'cli_strict', '--dry-run'], { env: fx.env })
    assert.equal(dry.code, 0, dry.stderr)
    assert.match(dry.stdout, /would cancel 3 job\(s\): cli_noop 3/)
    const res = await runCli(['cancel', '-e', 'cli_noop', '-e', 'cli_strict', '--yes', '--json'], { env: fx.env })
    assert.equal(res.code, 0, res.stderr)
    const doc = JSON.parse(res.stdout)
    assert.deepEqual(doc.matching, { queued: 3, running: 0 })
    assert.equal(doc.canceled.length, 3)
    assert.deepEqual(doc.cancelRequested, [])
    assert.deepEqual(await statuses(), { failed: 1, picked: 1 })
    const log = await logOf(doc.canceled[0].id)
    assert.deepEqual([log.length, log[0].status, log[0].traceback.exception_type], [1, 'canceled', 'JobCanceled'])
  })

  it('a running job needs --running: without it exit 5 with a hint, nothing written', async () => {
    const ids = await insertHeld(fx.db.pool, 'cli_noop', 1)
    await fx.db.pool.query(`UPDATE pgqueuer SET status = 'picked', queue_manager_id = gen_random_uuid()`)
    const before = await snapshot()
    const res = await runCli(['cancel', '--id', ids[0], '--yes'], { env: fx.env })
    assert.equal(res.code, 5)
    assert.match(res.stderr, new RegExp(`error: not queued: job ${ids[0]} \\(picked\\)`))
    assert.match(res.stderr, /hint: add --running/)
    assert.equal(await snapshot(), before)
  })

  it('--running aborts the handler on the worker running the job, which leaves with a `canceled` log row', async () => {
    const worker = fx.spawnWorker(['--entrypoint', 'test_cancelable', '--entrypoint', 'test_record'])
    const id = String(await enqueue(fx.db.pool, { entrypoint: 'test_cancelable', payload: {} }))
    await worker.waitFor((e) => e.event === 'job:picked' && e.jobId === id, 'the pick')
    await waitFor('the handler to start', async () => (await fx.db.pool.query('SELECT 1 FROM test_runs WHERE job_id = $1', [id])).rowCount === 1)
    const started = await worker.waitFor((e) => e.event === 'worker:started', 'start')
    const res = await runCli(['cancel', '--id', id, '--running', '--yes', '--json'], { env: fx.env })
    assert.equal(res.code, 0, res.stderr)
    const doc = JSON.parse(res.stdout)
    assert.deepEqual(doc.cancelRequested, [{ id, entrypoint: 'test_cancelable', queueManagerId: started.queueManagerId }])
    assert.deepEqual(doc.canceled, [])
    await worker.waitFor((e) => e.event === 'job:cancel-requested' && e.jobId === id, 'the request')
    const canceled = await worker.waitFor((e) => e.event === 'job:canceled' && e.jobId === id, 'the cancel')
    assert.equal(canceled.ran, true)
    await waitFor('the row to leave', async () => (await fx.db.pool.query('SELECT 1 FROM pgqueuer WHERE id = $1', [id])).rowCount === 0)
    const notes = (await fx.db.pool.query('SELECT note FROM test_runs WHERE job_id = $1 ORDER BY seq', [id])).rows.map((r) => r.note)
    assert.deepEqual(notes, ['start', 'aborted: JobCanceledError: an operator canceled this job'])
    const log = await logOf(id)
    assert.deepEqual(
      log.map((l) => l.status),
      ['canceled'],
    )
    assert.match(log[0].traceback.exception_message, /^canceled while running, by \S+@\S+$/)
    assert.equal(log[0].traceback.additional_context.whileRunning, true)
    // The worker goes on: the next job runs.
    await enqueue(fx.db.pool, { entrypoint: 'test_record', payload: { tag: 'after' } })
    await waitFor('the next job', async () => (await fx.db.pool.query(`SELECT 1 FROM test_runs WHERE note = 'after'`)).rowCount === 1)
  })

  it('a request whose NOTIFY never came reaches the worker through its heartbeat', async () => {
    const worker = fx.spawnWorker(['--entrypoint', 'test_cancelable'])
    const id = String(await enqueue(fx.db.pool, { entrypoint: 'test_cancelable', payload: {} }))
    await worker.waitFor((e) => e.event === 'job:picked' && e.jobId === id, 'the pick')
    // Mark the row as `aizk cancel --running` does, but send no notification.
    await fx.db.pool.query(`UPDATE pgqueuer SET headers = '{"aizk":{"cancelRequestedAt":"2026-01-01T00:00:00Z"}}' WHERE id = $1`, [id])
    await worker.waitFor((e) => e.event === 'job:canceled' && e.jobId === id, 'the cancel')
    await waitFor('the log row', async () => (await logOf(id)).length === 1)
    assert.equal((await logOf(id))[0].status, 'canceled')
  })

  it('a marked job re-picked from a dead worker is canceled without running', async () => {
    const { rows } = await fx.db.pool.query<{ id: string }>(
      `INSERT INTO pgqueuer (priority, entrypoint, status, queue_manager_id, heartbeat, payload, headers)
       VALUES (0, 'test_cancelable', 'picked', gen_random_uuid(), now() - interval '1 hour', convert_to('{}', 'utf8'),
               '{"aizk":{"cancelRequestedAt":"2026-01-01T00:00:00Z","cancelRequestedBy":"ops@host"}}')
       RETURNING id::text`,
    )
    const worker = fx.spawnWorker(['--entrypoint', 'test_cancelable'])
    const canceled = await worker.waitFor((e) => e.event === 'job:canceled' && e.jobId === rows[0].id, 'the cancel')
    assert.equal(canceled.ran, false)
    await waitFor('the log row', async () => (await logOf(rows[0].id)).length === 1)
    assert.match((await logOf(rows[0].id))[0].traceback.exception_message, /by ops@host$/)
    assert.equal((await fx.db.pool.query('SELECT count(*)::int AS n FROM test_runs')).rows[0].n, 0)
  })
})
