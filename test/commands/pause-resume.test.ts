/**
 * `aizk pause` / `aizk resume` end to end: the real CLI and real worker processes on a database
 * of this file's own. Whether a paused job was left alone is decided by priority order, not by
 * waiting: the paused job outranks a marker job of another entrypoint, so had the worker been
 * free to pick it, it would have run before the marker.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { enqueue } from '../../src/queue/enqueue.js'
import { runCli } from '../support/cli.js'
import { workerFixture } from '../support/commands/worker-fixture.js'
import { waitFor } from '../support/wait-for.js'
import { TEST_JOBS } from '../support/worker-process.js'

const fx = await workerFixture({ env: (url) => ({ AIZK_DATABASE_URL: url, AIZK_WORKER_JOB_MODULES: TEST_JOBS }), truncate: ['aizk_entrypoint_pause'] })
const start = () => fx.spawnWorker(['--entrypoint', 'test_record', '--entrypoint', 'test_sleep', '--concurrency', '1', '--batch-size', '1'])

const statusOf = async (id: string) => (await fx.db.pool.query('SELECT status::text FROM pgqueuer WHERE id = $1', [id])).rows[0]?.status ?? 'gone'

/** Enqueue a marker (test_sleep, priority 0) and wait until it ran. */
async function runMarker(): Promise<void> {
  const id = String(await enqueue(fx.db.pool, { entrypoint: 'test_sleep', payload: { ms: 0 } }))
  await waitFor('the marker to run', async () => (await fx.db.pool.query('SELECT 1 FROM pgqueuer_log WHERE job_id = $1', [id])).rowCount === 1)
}

describe('aizk pause and resume', () => {
  it('every worker stops picking at once, enqueue goes on, resume picks again', async () => {
    const [a, b] = [start(), start()]
    await a.waitFor((e) => e.event === 'worker:started', 'worker a')
    await b.waitFor((e) => e.event === 'worker:started', 'worker b')
    const paused = await runCli(['pause', 'test_record', '--reason', 'maintenance', '--json'], { env: fx.env })
    assert.equal(paused.code, 0, paused.stderr)
    const doc = JSON.parse(paused.stdout)
    assert.equal(doc.entrypoint, 'test_record')
    assert.equal(doc.paused, true)
    assert.equal(doc.changed, true)
    assert.equal(doc.reason, 'maintenance')
    assert.match(doc.pausedBy, /^\S+@\S+$/)
    for (const w of [a, b]) {
      const e = await w.waitFor((x) => x.event === 'entrypoint:paused', 'the pause event')
      assert.deepEqual([e.entrypoint, e.reason, e.pausedBy], ['test_record', 'maintenance', doc.pausedBy])
    }
    // Enqueue still works while paused, through the CLI and the library.
    const viaCli = await runCli(['enqueue', 'test_record', '--payload', '{"tag":"cli"}', '--priority', '9', '--json'], { env: fx.env })
    assert.equal(viaCli.code, 0, viaCli.stderr)
    const held = JSON.parse(viaCli.stdout).id as string
    await runMarker()
    await runMarker()
    assert.equal(await statusOf(held), 'queued')
    const again = await runCli(['pause', 'test_record', '--json'], { env: fx.env })
    assert.equal(JSON.parse(again.stdout).changed, false)

    const resumed = await runCli(['resume', 'test_record', '--json'], { env: fx.env })
    assert.equal(resumed.code, 0, resumed.stderr)
    assert.deepEqual(JSON.parse(resumed.stdout), { entrypoint: 'test_record', paused: false, changed: true, pausedSince: doc.pausedAt })
    for (const w of [a, b]) await w.waitFor((x) => x.event === 'entrypoint:resumed' && x.entrypoint === 'test_record', 'the resume event')
    await waitFor('the paused job to run', async () => (await statusOf(held)) === 'gone')
    const text = await runCli(['resume', 'test_record'], { env: fx.env })
    assert.equal(text.code, 0, text.stderr)
    assert.match(text.stdout, /test_record was not paused/)
  })

  it('a worker started while paused stays paused, and says so', async () => {
    assert.equal((await runCli(['pause', 'test_record'], { env: fx.env })).code, 0)
    const held = String(await enqueue(fx.db.pool, { entrypoint: 'test_record', payload: {}, priority: 9 }))
    const w = start()
    const e = await w.waitFor((x) => x.event === 'entrypoint:paused', 'the pause event on start')
    assert.equal(e.entrypoint, 'test_record')
    const startedAt = w.events.findIndex((x) => x.event === 'worker:started')
    assert.ok(startedAt >= 0 && startedAt < w.events.indexOf(e), 'reported after worker:started')
    await runMarker()
    assert.equal(await statusOf(held), 'queued')
    w.kill('SIGKILL')
    await w.exited
    const restarted = start()
    await restarted.waitFor((x) => x.event === 'entrypoint:paused', 'the pause event after a restart')
    await runMarker()
    assert.equal(await statusOf(held), 'queued')
    assert.equal((await runCli(['resume', 'test_record'], { env: fx.env })).code, 0)
    await waitFor('the job to run', async () => (await statusOf(held)) === 'gone')
  })

  it('status shows paused entrypoints in text and JSON', async () => {
    await enqueue(fx.db.pool, { entrypoint: 'test_record', payload: {} })
    assert.equal((await runCli(['pause', 'test_record', '-r', 'disk full'], { env: fx.env })).code, 0)
    assert.equal((await runCli(['pause', 'py_mailer', '--force'], { env: fx.env })).code, 0)
    const json = await runCli(['status', '--json'], { env: fx.env })
    assert.equal(json.code, 0, json.stderr)
    const stats = JSON.parse(json.stdout)
    assert.deepEqual(
      stats.paused.map((p: { entrypoint: string; reason: string | null }) => [p.entrypoint, p.reason]),
      [
        ['py_mailer', null],
        ['test_record', 'disk full'],
      ],
    )
    assert.equal(stats.entrypoints.find((e: { entrypoint: string }) => e.entrypoint === 'test_record').paused, true)
    const text = await runCli(['status', '--once'], { env: fx.env })
    assert.match(text.stdout, /^paused: py_mailer \(\S+@\S+\), test_record \(\S+@\S+: disk full\)$/m)
    assert.match(text.stdout, /test_record \(paused\)/)
  })

  it('an unknown or malformed entrypoint exits 2 and stores nothing', async () => {
    const unknown = await runCli(['pause', 'test_recrd', '--json'], { env: fx.env })
    assert.equal(unknown.code, 2)
    const err = JSON.parse(unknown.stdout).error
    assert.match(err.message, /unknown entrypoint "test_recrd"/)
    assert.match(err.hint, /did you mean "test_record"/)
    assert.match(err.hint, /--force/)
    const bad = await runCli(['pause', 'Bad Name', '--force'], { env: fx.env })
    assert.equal(bad.code, 2)
    assert.match(bad.stderr, /error: "Bad Name" is not an entrypoint name/)
    const missing = await runCli(['resume'], { env: fx.env })
    assert.equal(missing.code, 2)
    assert.match(missing.stderr, /error: Missing 1 required arg/)
    assert.equal((await fx.db.pool.query('SELECT count(*)::int AS n FROM aizk_entrypoint_pause')).rows[0].n, 0)
  })
})
