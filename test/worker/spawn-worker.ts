/**
 * Spawn a real `aizk worker` (bin/run.js over dist/) bound to the test jobs of
 * test/fixtures/test-jobs.mjs, with timings small enough for tests to run in seconds.
 * Its stdout is JSON lines (no terminal), parsed here so tests wait on events, not sleeps.
 */
import path from 'node:path'
import { repoRoot } from '../helpers/cli.js'
import { spawnWorker as spawnProcess, type WorkerProcess, workerEnv } from '../helpers/worker-process.js'

export const TEST_JOBS = path.join(repoRoot, 'test', 'fixtures', 'test-jobs.mjs')

export type { WorkerEvent } from '../helpers/worker-process.js'
export type SpawnedWorker = WorkerProcess

export const FAST_ENV = {
  AIZK_HEARTBEAT_INTERVAL_SECONDS: '0.2',
  AIZK_HEARTBEAT_TIMEOUT_SECONDS: '1.5',
  AIZK_POLL_INTERVAL_SECONDS: '0.2',
  AIZK_RETRY_BASE_SECONDS: '0.05',
  AIZK_RETRY_MAX_SECONDS: '0.2',
}

/**
 * A worker bound to the fixture jobs with FAST_ENV, on `url` (the one spawn helper underneath).
 * No scheduler unless `env` asks (workerEnv's default): a test spanning a minute's turn would
 * find the every-minute jobs queued beside the rows it checks.
 */
export function spawnWorker(url: string, args: string[] = [], env: Record<string, string> = {}): SpawnedWorker {
  return spawnProcess(workerEnv(url, { AIZK_WORKER_JOB_MODULES: TEST_JOBS, ...FAST_ENV, ...env }), args)
}

/** Stop every worker, however the test ended: SIGKILL what is still alive. */
export async function killAll(workers: SpawnedWorker[]): Promise<void> {
  for (const w of workers) w.kill('SIGKILL')
  await Promise.all(workers.map((w) => w.exited))
}

export const FIXTURE_TABLES = `
  CREATE TABLE IF NOT EXISTS test_runs (seq bigserial PRIMARY KEY, job_id bigint, entrypoint text, attempts int, pid int, note text, at timestamptz DEFAULT clock_timestamp());
  CREATE TABLE IF NOT EXISTS test_counter (name text PRIMARY KEY, running int NOT NULL DEFAULT 0, max_running int NOT NULL DEFAULT 0, done int NOT NULL DEFAULT 0);
`

