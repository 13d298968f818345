/**
 * The server turns read-only under a connected, running worker (`ALTER SYSTEM SET
 * default_transaction_read_only = on`, reloaded: every write answers 25006 while connections stay
 * open, as a demoted Patroni leader's do), and an administrator ends the worker's connections
 * (57P01). On a server of the test's own (an embedded instance in a scratch folder on a free
 * port), never the one other tests share (docs/running-the-worker.md#read-only-servers).
 */
import assert from 'node:assert/strict'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import type pg from 'pg'
import { ensureEmbeddedServer, stopEmbeddedServer } from '../../src/db/embedded.js'
import { migrate } from '../../src/db/migrate.js'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { withClient as withUrlClient } from '../support/db.js'
import { waitFor } from '../support/wait-for.js'
import { FIXTURE_TABLES, fastWorkerEnv, freePort, isEvent, spawnWorker, type WorkerProcess } from '../support/worker-process.js'

let dataDir: string
let url: string
let worker: WorkerProcess | undefined

// A superuser may always turn it off for its own session: the test's writes go through.
const withClient = <T>(fn: (c: pg.Client) => Promise<T>) =>
  withUrlClient(url, async (c) => {
    await c.query('SET default_transaction_read_only = off')
    return fn(c)
  })

const enqueueSleeps = (n: number, ms: number) =>
  withClient(
    async (c) =>
      (await enqueueMany(
        c,
        Array.from({ length: n }, () => ({ entrypoint: 'test_sleep', payload: { ms } })),
      )) as string[],
  )

const setReadOnly = (on: boolean) =>
  withClient(async (c) => {
    await c.query(on ? 'ALTER SYSTEM SET default_transaction_read_only = on' : 'ALTER SYSTEM RESET default_transaction_read_only')
    await c.query('SELECT pg_reload_conf()')
  })

const readyz = async (port: number) => {
  const res = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined)
  return res ? { status: res.status, body: (await res.json()) as { checks: Record<string, { ok: boolean; detail?: string }> } } : undefined
}

/** Every job logged exactly once, as successful, and none missing. */
async function assertEachOnce(ids: string[]): Promise<void> {
  const log = await withClient((c) =>
    c.query<{ job_id: string; status: string; n: number }>('select job_id::text, status::text, count(*)::int as n from pgqueuer_log group by 1, 2'),
  )
  assert.deepEqual(
    log.rows.filter((r) => r.status !== 'successful' || r.n !== 1),
    [],
    'each job logged once, as successful',
  )
  assert.deepEqual(new Set(log.rows.map((r) => r.job_id)), new Set(ids), 'no job lost')
  assert.equal((await withClient((c) => c.query('select 1 from pgqueuer'))).rowCount, 0, 'the queue is empty')
}

before(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'aizk-read-only-'))
  await fs.chmod(dataDir, 0o755)
  url = (await ensureEmbeddedServer({ dataDir, port: await freePort(), env: process.env })).url
  await withClient(async (c) => {
    await migrate(c, { appRole: 'aizk_app' })
    await c.query(FIXTURE_TABLES)
  })
})

after(async () => {
  await worker?.kill()
  await setReadOnly(false).catch(() => {})
  await stopEmbeddedServer(dataDir, process.env).catch(() => {})
  await fs.rm(dataDir, { recursive: true, force: true })
})

describe('aizk worker end to end: a server that turns read-only, connections ended by an administrator', () => {
  it('stops picking and fails /readyz while writes are refused, resumes once they are accepted, loses and doubles nothing', async () => {
    await withClient((c) => c.query('TRUNCATE pgqueuer, pgqueuer_log, test_runs'))
    const first = await enqueueSleeps(600, 150)
    const healthPort = await freePort()
    worker = spawnWorker(
      fastWorkerEnv(url, {
        AIZK_QUEUE_BATCH_SIZE: '8',
        AIZK_QUEUE_CONCURRENT_TASKS: '8',
        AIZK_WORKER_ENTRYPOINTS: 'test_sleep',
        AIZK_WORKER_HEALTH_PORT: String(healthPort),
        AIZK_HEARTBEAT_TIMEOUT_SECONDS: '30',
      }),
    )
    const w = worker
    await w.waitForCount(isEvent('job:completed'), 40, 'work flowing before the flip')
    assert.equal((await readyz(healthPort))?.status, 200)
    const listenBefore = await withClient((c) => c.query<{ pid: number }>("select pid from pg_stat_activity where application_name = 'aizk-listen'"))
    assert.equal(listenBefore.rowCount, 1)

    await setReadOnly(true)
    const lost = await w.waitFor(isEvent('db:lost'), 'the worker counting the read-only server as an outage')
    assert.equal(lost.readOnly, true)
    assert.match(String(lost.error), /read-only transaction/)
    const notReady = await waitFor('/readyz failing', async () => {
      const r = await readyz(healthPort)
      return r?.status === 503 ? r : undefined
    })
    assert.equal(notReady.body.checks.writable.ok, false)
    assert.match(String(notReady.body.checks.writable.detail), /read-only/)
    // Hold the server read-only for a while (the scenario, not a wait for a result): the picks
    // back off and try again, the handlers in flight settle, their outcomes wait.
    const markedAt = w.events.length
    await new Promise((r) => setTimeout(r, 2000))
    const during = w.events.slice(markedAt)
    assert.deepEqual(
      during.filter((e) => e.event === 'batch:picked' || e.event === 'outcomes:written' || e.event === 'db:reconnected'),
      [],
      'nothing picked or written while read-only',
    )
    assert.equal((await readyz(healthPort))?.status, 503, 'still not ready')

    const flippedBackAt = Date.now()
    await setReadOnly(false)
    const back = await w.waitFor(isEvent('db:reconnected'), 'the worker writing again', 30_000)
    const resumeMs = Date.now() - flippedBackAt
    console.log(`# read-only for ${back.downMs} ms; picking again ${resumeMs} ms after the server accepted writes`)
    assert.ok(resumeMs < 10_000, `resumed ${resumeMs} ms after the flip back`)
    await waitFor('/readyz passing again', async () => (await readyz(healthPort))?.status === 200)
    // LISTEN renewed after a read-only outage: a new backend, and NOTIFYs wake the worker again.
    await waitFor('a new LISTEN connection', async () => {
      const now = await withClient((c) => c.query<{ pid: number }>("select pid from pg_stat_activity where application_name = 'aizk-listen'"))
      return now.rowCount === 1 && now.rows[0].pid !== listenBefore.rows[0].pid
    })

    const second = await enqueueSleeps(100, 1)
    const all = [...first, ...second]
    await waitFor(
      'every job done',
      async () => (await withClient((c) => c.query("select 1 from pgqueuer_log where status = 'successful'"))).rowCount === all.length,
      120_000,
    )
    await assertEachOnce(all)
    assert.equal(w.events.filter(isEvent('job:held')).length, 0, 'a handler whose write was refused is retried, never held')
    const released = w.events.filter(isEvent('job:released')).length
    console.log(`# ${released} waiting jobs released at the refusal; ${w.events.filter(isEvent('job:retried')).length} handlers retried`)
    assert.equal(await w.stop(), 0, w.stderr())
    assert.deepEqual(w.badLines, [])
  })

  it('counts connections ended by an administrator (57P01) as an outage: reconnects, renews LISTEN, loses and doubles nothing', async () => {
    await withClient((c) => c.query('TRUNCATE pgqueuer, pgqueuer_log, test_runs'))
    const ids = await enqueueSleeps(400, 50)
    worker = spawnWorker(fastWorkerEnv(url, { AIZK_QUEUE_BATCH_SIZE: '8', AIZK_QUEUE_CONCURRENT_TASKS: '8', AIZK_WORKER_ENTRYPOINTS: 'test_sleep' }))
    const w = worker
    await w.waitForCount(isEvent('job:completed'), 40, 'work flowing before the terminations')
    for (let round = 1; round <= 2; round++) {
      const ended = await withClient((c) =>
        c.query("select pg_terminate_backend(pid) from pg_stat_activity where application_name like 'aizk%' and pid <> pg_backend_pid()"),
      )
      assert.ok((ended.rowCount ?? 0) >= 2, 'the queue pool and the LISTEN connection were ended')
      await w.waitForCount(isEvent('db:lost'), round, `loss ${round}`)
      await w.waitForCount(isEvent('db:reconnected'), round, `reconnect ${round}`)
    }
    await waitFor(
      'LISTEN back',
      async () => (await withClient((c) => c.query("select 1 from pg_stat_activity where application_name = 'aizk-listen'"))).rowCount === 1,
    )
    const more = await enqueueSleeps(50, 1)
    const all = [...ids, ...more]
    await waitFor(
      'every job done',
      async () => (await withClient((c) => c.query("select 1 from pgqueuer_log where status = 'successful'"))).rowCount === all.length,
      120_000,
    )
    await assertEachOnce(all)
    assert.equal(w.events.filter(isEvent('job:held')).length, 0)
    assert.equal(await w.stop(), 0, w.stderr())
  })
})
