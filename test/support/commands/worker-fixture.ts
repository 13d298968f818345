/**
 * The setup of command tests that run real workers: a database of the file's own with the test
 * jobs' tables, the queue emptied before each test, and every worker a test spawned killed after
 * it. `await` it at the top of a test file.
 */
import { afterEach } from 'node:test'
import { fileDatabase, type TestDatabaseHandle } from '../db.js'
import { FIXTURE_TABLES, fastWorkerEnv, killAll, type SpawnedWorker, spawnWorker } from '../worker-process.js'

export interface WorkerFixture {
  db: TestDatabaseHandle
  /** The environment the file's CLI runs get. */
  env: Record<string, string>
  /** `aizk worker ARGS` on this database, killed after the test. */
  spawnWorker(args: string[]): SpawnedWorker
}

export async function workerFixture(opts: { env: (url: string) => Record<string, string>; truncate?: string[] }): Promise<WorkerFixture> {
  let workers: SpawnedWorker[] = []
  const db = await fileDatabase({ emptied: ['pgqueuer', 'pgqueuer_log', 'test_runs', 'aizk_worker', ...(opts.truncate ?? [])] })
  const fixture = {
    db,
    env: {},
    spawnWorker(args: string[]) {
      const worker = spawnWorker(fastWorkerEnv(fixture.db.url), args)
      workers.push(worker)
      return worker
    },
  } as WorkerFixture
  await db.pool.query(FIXTURE_TABLES)
  fixture.env = opts.env(db.url)
  afterEach(async () => {
    await killAll(workers)
    workers = []
  })
  return fixture
}
