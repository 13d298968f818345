/**
 * The PostgreSQL server restarted under a running worker. On a server of the test's own (an
 * embedded instance in a scratch folder on a free port), never the one other tests share.
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
import { freePort, isEvent, spawnWorker, type WorkerProcess, workerEnv } from '../support/worker-process.js'

let dataDir: string
let url: string
let worker: WorkerProcess | undefined

const withClient = <T>(fn: (c: pg.Client) => Promise<T>) => withUrlClient(url, fn)

/** test_sleep jobs write a row and sleep a little, so the restart lands on jobs in flight. */
const enqueueJobs = (n: number) =>
  withClient(
    async (c) =>
      (await enqueueMany(
        c,
        Array.from({ length: n }, () => ({ entrypoint: 'test_sleep', payload: { ms: 2 } })),
      )) as string[],
  )

before(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'aizk-restart-'))
  await fs.chmod(dataDir, 0o755)
  const server = await ensureEmbeddedServer({ dataDir, port: await freePort(), env: process.env })
  url = server.url
  await withClient(async (c) => {
    await migrate(c, { appRole: 'aizk_app' })
    await c.query(
      'create table test_runs (id bigserial primary key, job_id bigint, entrypoint text, attempts int, pid int, note text, at timestamptz default now())',
    )
  })
})

after(async () => {
  await worker?.kill()
  await stopEmbeddedServer(dataDir, process.env).catch(() => {})
  await fs.rm(dataDir, { recursive: true, force: true })
})

describe('aizk worker end to end: a database restart', () => {
  it('reconnects and completes every job enqueued before, during and after exactly once', async () => {
    const before = await enqueueJobs(3000)
    worker = spawnWorker(workerEnv(url, { AIZK_QUEUE_BATCH_SIZE: '8', AIZK_QUEUE_CONCURRENT_TASKS: '8', AIZK_WORKER_ENTRYPOINTS: 'test_sleep' }))
    await worker.waitForCount(isEvent('job:completed'), 200, 'work flowing before the restart')

    // Stop the server with the worker mid-stream, then start it again on the same port.
    await stopEmbeddedServer(dataDir, process.env)
    await worker.waitFor(isEvent('db:lost'), 'the worker noticing the loss')
    await ensureEmbeddedServer({ dataDir, port: 0, env: process.env })
    const during = await enqueueJobs(500)
    await worker.waitFor(isEvent('db:reconnected'), 'the worker reconnecting')
    const after = await enqueueJobs(500)

    const all = [...before, ...during, ...after]
    await worker.waitForCount(isEvent('job:completed'), all.length, 'every job completed', 120_000)
    // The drain on SIGTERM writes whatever outcomes are still buffered.
    worker.child.kill('SIGTERM')
    const { code } = await worker.exited
    assert.equal(code, 0, worker.stderr())

    const log = await withClient((c) =>
      c.query<{ job_id: string; status: string; n: number }>('select job_id::text, status::text, count(*)::int as n from pgqueuer_log group by 1, 2'),
    )
    assert.deepEqual(
      log.rows.filter((r) => r.status !== 'successful' || r.n !== 1),
      [],
      'each job logged once, as successful',
    )
    assert.deepEqual(new Set(log.rows.map((r) => r.job_id)), new Set(all), 'no job lost')
    const completions = new Map<string, number>()
    for (const e of worker.events.filter(isEvent('job:completed'))) completions.set(e.jobId as string, (completions.get(e.jobId as string) ?? 0) + 1)
    assert.deepEqual(
      [...completions.values()].filter((n) => n !== 1),
      [],
      'each job completed once in the worker log',
    )
    assert.equal(completions.size, all.length)
    assert.deepEqual(worker.badLines, [])
    // A handler whose own write hit the outage failed and ran again: retried, never held.
    assert.equal(worker.events.filter(isEvent('job:held')).length, 0)
    const lostAt = worker.events.findIndex(isEvent('db:lost'))
    const doneBeforeLoss = worker.events.slice(0, lostAt).filter(isEvent('job:completed')).length
    assert.ok(doneBeforeLoss < before.length, `the restart hit mid-stream (${doneBeforeLoss} of ${before.length} done before it)`)
  })
})
