/**
 * What a crash of the server keeps at each durability level (docs/deployment.md#durability): the
 * queue always, the job history only when durable. On a server of the test's own, crashed with
 * SIGQUIT (an immediate shutdown: crash recovery at the next start), never the shared one.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { embeddedServerStatus, ensureEmbeddedServer, stopEmbeddedServer } from '../../src/db/embedded.js'
import { migrate } from '../../src/db/migrate.js'
import { readDurability, setDurability } from '../../src/queue/durability.js'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { withClient as withUrlClient } from '../support/db.js'
import { waitFor } from '../support/wait-for.js'
import { freePort, isEvent, spawnWorker, workerEnv } from '../support/worker-process.js'

let dataDir: string
let url: string

const withClient = <T>(fn: (c: pg.Client) => Promise<T>) => withUrlClient(url, fn)

const enqueueJobs = (n: number) =>
  withClient(
    async (c) =>
      (await enqueueMany(
        c,
        Array.from({ length: n }, () => ({ entrypoint: 'test_sleep', payload: { ms: 0 } })),
      )) as string[],
  )

/** Runs a worker until `ids` are done, then stops it. */
async function drain(ids: string[]): Promise<void> {
  const worker = spawnWorker(workerEnv(url, { AIZK_WORKER_ENTRYPOINTS: 'test_sleep' }))
  try {
    await worker.waitForCount(isEvent('job:completed'), ids.length, 'every job completed')
  } finally {
    assert.equal(await worker.stop(), 0, worker.stderr())
  }
}

async function crashAndRestart(): Promise<void> {
  const { pid } = await embeddedServerStatus(dataDir)
  assert.ok(pid, 'the server is running')
  process.kill(pid, 'SIGQUIT')
  await waitFor('the postmaster to exit', async () => {
    try {
      process.kill(pid, 0)
      return false
    } catch {
      return true
    }
  })
  await ensureEmbeddedServer({ dataDir, port: 0, env: process.env })
}

const counts = () =>
  withClient(async (c) => {
    const { rows } = await c.query<{ queued: number; log: number; runs: number }>(
      "SELECT (SELECT count(*)::int FROM pgqueuer WHERE status = 'queued') AS queued, (SELECT count(*)::int FROM pgqueuer_log) AS log, (SELECT count(*)::int FROM test_runs) AS runs",
    )
    return rows[0]
  })

before(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'aizk-durability-'))
  await fs.chmod(dataDir, 0o755)
  url = (await ensureEmbeddedServer({ dataDir, port: await freePort(), env: process.env })).url
  await withClient(async (c) => {
    await migrate(c, { appRole: 'aizk_app' })
    await c.query(
      'create table test_runs (id bigserial primary key, job_id bigint, entrypoint text, attempts int, pid int, note text, at timestamptz default now())',
    )
  })
})

after(async () => {
  await stopEmbeddedServer(dataDir, process.env).catch(() => {})
  await fs.rm(dataDir, { recursive: true, force: true })
})

describe('durability across a crash of the server', () => {
  it('durable keeps the history; balanced loses only the history, and the queue runs on', async () => {
    await drain(await enqueueJobs(60))
    await enqueueJobs(20)
    await crashAndRestart()
    assert.deepEqual(await counts(), { queued: 20, log: 60, runs: 60 }, 'durable: every row kept')

    const pool = new pg.Pool({ connectionString: url, max: 1 })
    try {
      await setDurability(pool, 'balanced', { lockTimeoutMs: 5000 })
    } finally {
      await pool.end()
    }
    await drain(await withClient(async (c) => (await c.query<{ id: string }>("SELECT id::text FROM pgqueuer WHERE status = 'queued'")).rows.map((r) => r.id)))
    const waiting = await enqueueJobs(30)
    assert.deepEqual(await counts(), { queued: 30, log: 80, runs: 80 })
    await crashAndRestart()
    assert.deepEqual(await counts(), { queued: 30, log: 0, runs: 80 }, 'balanced: the log emptied, the queue and the data kept')
    assert.equal((await withClient((c) => readDurability(c))).level, 'balanced', 'the level outlives the crash')

    await drain(waiting)
    const { rows } = await withClient((c) => c.query<{ job_id: string }>("SELECT job_id::text FROM pgqueuer_log WHERE status = 'successful' ORDER BY job_id"))
    assert.deepEqual(
      rows.map((r) => r.job_id),
      [...waiting].sort((a, b) => Number(a) - Number(b)),
      'the jobs that waited through the crash ran once each, logged again',
    )
  })
})
