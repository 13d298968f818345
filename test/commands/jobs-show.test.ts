/**
 * `aizk jobs show ID` end to end: the real CLI on a database of this file's own, with jobs in
 * every state a real worker process puts them in (held after failures, picked while running,
 * finished), plus queued rows and bad ids.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { enqueue } from '../../src/queue/enqueue.js'
import { runCli } from '../support/cli.js'
import { workerFixture } from '../support/commands/worker-fixture.js'
import { TEST_JOBS } from '../support/worker-process.js'

const fx = await workerFixture({ env: (url) => ({ AIZK_DATABASE_URL: url, AIZK_WORKER_JOB_MODULES: TEST_JOBS }) })

async function show(id: string, ...flags: string[]) {
  const res = await runCli(['jobs', 'show', id, '--json', ...flags], { env: fx.env })
  assert.equal(res.code, 0, res.stderr)
  return JSON.parse(res.stdout)
}

describe('aizk jobs show', () => {
  it('a queued job: row, pretty payload cut at 2,000 characters unless --full, headers', async () => {
    const long = 'x'.repeat(5000)
    const id = String(await enqueue(fx.db.pool, { entrypoint: 'test_record', payload: { tag: 'a', long }, priority: 7, dedupeKey: 'story-1' }))
    const doc = await show(id)
    assert.equal(doc.id, id)
    assert.equal(doc.state, 'queued')
    assert.equal(doc.job.entrypoint, 'test_record')
    assert.equal(doc.job.priority, 7)
    assert.equal(doc.job.attempts, 0)
    assert.equal(doc.job.dedupeKey, 'story-1')
    assert.equal(doc.payload.encoding, 'json')
    assert.equal(doc.payload.truncated, true)
    assert.equal(doc.payload.text.length, 2000)
    assert.ok(doc.payload.text.startsWith('{\n  "tag": "a",\n  "long": "xxx'))
    assert.equal(doc.payload.value, undefined)
    assert.deepEqual(doc.log, [])
    assert.equal(doc.holder, null)
    const full = await show(id, '--full')
    assert.equal(full.payload.truncated, false)
    assert.deepEqual(full.payload.value, { tag: 'a', long })
    const text = await runCli(['jobs', 'show', id], { env: fx.env })
    assert.equal(text.code, 0, text.stderr)
    assert.match(text.stdout, new RegExp(`^job ${id} · test_record · queued$`, 'm'))
    assert.match(text.stdout, /priority 7 · attempts 0 · cycles 0 · dedupe key story-1/)
    assert.match(text.stdout, /cut at 2000 characters: --full shows the whole payload/)
    assert.match(text.stdout, /log: no rows yet/)
  })

  it('a held job: attempts, cycles, and the traceback of every failure in the log', async () => {
    const w = fx.spawnWorker(['--entrypoint', 'test_fail'])
    const id = String(await enqueue(fx.db.pool, { entrypoint: 'test_fail', payload: {} }))
    await w.waitFor((e) => e.event === 'job:held' && e.jobId === id, 'the first hold')
    assert.equal((await runCli(['requeue', '--id', id], { env: fx.env })).code, 0)
    await w.waitFor((e) => e.event === 'job:held' && e.jobId === id && w.events.filter((x) => x.event === 'job:held').length === 2, 'the second hold')
    const doc = await show(id)
    assert.equal(doc.state, 'held')
    assert.equal(doc.job.status, 'failed')
    assert.equal(doc.job.attempts, 3)
    assert.equal(doc.job.cycles, 1)
    assert.equal(doc.lastError.type, 'TypeError')
    assert.deepEqual(
      doc.log.map((l: { status: string }) => l.status),
      ['failed', 'failed'],
    )
    for (const l of doc.log) {
      assert.match(l.created, /^\d{4}-\d\d-\d\dT/)
      assert.equal(l.traceback.exception_type, 'TypeError')
      assert.equal(l.traceback.exception_message, 'boom on attempt 2')
      assert.match(l.traceback.traceback, /at FailingJob\.handle/)
    }
    const text = await runCli(['jobs', 'show', id], { env: fx.env })
    assert.match(text.stdout, new RegExp(`^job ${id} · test_fail · held$`, 'm'))
    assert.match(text.stdout, /priority 0 · attempts 3 · cycles 1/)
    assert.match(text.stdout, /log \(2 rows\):\n {2}\S+ {2}failed {5}priority 0\n {6}TypeError: boom on attempt 2\n {10}at FailingJob\.handle/)
  })

  it('a picked job names the worker running it; once finished, the log tells the rest', async () => {
    const w = fx.spawnWorker(['--entrypoint', 'test_cancelable'])
    const started = await w.waitFor((e) => e.event === 'worker:started', 'start')
    const id = String(await enqueue(fx.db.pool, { entrypoint: 'test_cancelable', payload: { n: 1 } }))
    await w.waitFor((e) => e.event === 'job:picked' && e.jobId === id, 'the pick')
    const doc = await show(id)
    assert.equal(doc.state, 'picked')
    assert.equal(doc.job.queueManagerId, started.queueManagerId)
    assert.deepEqual(
      { registered: doc.holder.registered, pid: doc.holder.pid, host: doc.holder.host, alive: doc.holder.alive },
      { registered: true, pid: started.pid, host: started.host, alive: true },
    )
    const text = await runCli(['jobs', 'show', id], { env: fx.env })
    assert.match(text.stdout, new RegExp(`held by worker ${started.queueManagerId} on \\S+ pid ${started.pid} \\(aizk \\S+, heartbeat \\S+ ago, alive\\)`))
    assert.equal((await runCli(['cancel', '--id', id, '--running', '--yes'], { env: fx.env })).code, 0)
    await w.waitFor((e) => e.event === 'job:canceled' && e.jobId === id, 'the cancel')
    let finished = await show(id)
    for (let i = 0; finished.state !== 'finished' && i < 100; i++) finished = await show(id)
    assert.equal(finished.state, 'finished')
    assert.equal(finished.job, null)
    assert.equal(finished.payload, null)
    assert.deepEqual(
      finished.log.map((l: { status: string }) => l.status),
      ['canceled'],
    )
    const gone = await runCli(['jobs', 'show', id], { env: fx.env })
    assert.match(gone.stdout, new RegExp(`^job ${id} · test_cancelable · finished \\(canceled\\)$`, 'm'))
    assert.match(gone.stdout, /the row is gone/)
    assert.match(gone.stdout, /canceled {3}priority 0\n {6}JobCanceled: canceled while running, by \S+@\S+/)
  })

  it('a successful job still in the log', async () => {
    const w = fx.spawnWorker(['--entrypoint', 'test_record'])
    const id = String(await enqueue(fx.db.pool, { entrypoint: 'test_record', payload: {} }))
    await w.waitFor((e) => e.event === 'job:completed' && e.jobId === id, 'the run')
    let doc = await show(id)
    for (let i = 0; doc.log.length === 0 && i < 100; i++) doc = await show(id)
    assert.equal(doc.state, 'finished')
    assert.deepEqual(
      doc.log.map((l: { status: string; traceback: unknown }) => [l.status, l.traceback]),
      [['successful', null]],
    )
  })

  it('an unknown id exits 5; a malformed or missing one exits 2', async () => {
    const none = await runCli(['jobs', 'show', '424242', '--json'], { env: fx.env })
    assert.equal(none.code, 5)
    assert.deepEqual(JSON.parse(none.stdout).error.details, { id: '424242' })
    const text = await runCli(['jobs', 'show', '424242'], { env: fx.env })
    assert.equal(text.code, 5)
    assert.match(text.stderr, /^error: no job 424242: not in the queue and no log row$/m)
    const bad = await runCli(['jobs', 'show', '12x'], { env: fx.env })
    assert.equal(bad.code, 2)
    assert.match(bad.stderr, /error: job id "12x" is not a job id/)
    const missing = await runCli(['jobs', 'show'], { env: fx.env })
    assert.equal(missing.code, 2)
    // The inventory is `aizk jobs types`.
    const inventory = await runCli(['jobs', 'types', '--json'], { env: fx.env })
    assert.equal(inventory.code, 0, inventory.stderr)
    assert.ok(JSON.parse(inventory.stdout).jobs.some((j: { entrypoint: string }) => j.entrypoint === 'test_record'))
  })
})
