/**
 * One scenario, one fresh database: PgQueuer 1.3.2 installs its own schema first (its
 * Queries.install()), then aizk adopts it, as an operator adding aizk to a PgQueuer deployment
 * would. Also the aizk worker process bound to the interop jobs, and the run records.
 */
import path from 'node:path'
import { before, it as nodeIt, type TestContext } from 'node:test'
import type pg from 'pg'
import { migrate } from '../../../src/db/migrate.js'
import { repoRoot } from '../cli.js'
import { createEmptyDatabase, freshDatabases, type TestDatabase } from '../db.js'
import { fastWorkerEnv, killAll, type SpawnedWorker, spawnWorker } from '../worker-process.js'
import { type PgqWorker, type PgqWorkerOptions, pgq, pgqueuerAbsent, requirePgQueuer, startPgqWorker } from './pgqueuer.js'

export const INTEROP_JOBS = path.join(repoRoot, 'test', 'support', 'interop', 'interop-jobs.mjs')

const RUNS_TABLE = `CREATE TABLE interop_runs (
  seq bigserial PRIMARY KEY, job_id bigint NOT NULL, entrypoint text NOT NULL, side text NOT NULL,
  attempts int, payload_hex text, payload_json text,
  started timestamptz NOT NULL DEFAULT clock_timestamp(), finished timestamptz)`

/** A database PgQueuer installed; `adopt` (default true) then runs aizk's migrations on it. */
export async function pgqueuerDatabase(opts: { adopt?: boolean } = {}, emptyDatabase = createEmptyDatabase): Promise<TestDatabase> {
  const db = await emptyDatabase()
  await pgq(db.url, ['install'])
  if (opts.adopt !== false) await adopt(db)
  await db.pool.query(RUNS_TABLE)
  return db
}

export async function adopt(db: TestDatabase): Promise<void> {
  const client = await db.pool.connect()
  try {
    await migrate(client, { appRole: 'aizk_app' })
  } finally {
    client.release()
  }
}

/** An aizk worker process bound to `entrypoints` of the interop jobs, no scheduler. */
export function startAizkWorker(db: TestDatabase, entrypoints: string[], env: Record<string, string> = {}): SpawnedWorker {
  return spawnWorker(
    fastWorkerEnv(db.url, {
      AIZK_WORKER_JOB_MODULES: INTEROP_JOBS,
      AIZK_WORKER_ENTRYPOINTS: entrypoints.join(','),
      AIZK_WORKER_NO_SCHEDULER: 'true',
      AIZK_WORKER_OUTPUT: 'json',
      ...env,
    }),
  )
}

export interface RunRow {
  job_id: string
  entrypoint: string
  side: string
  attempts: number
  payload_hex: string | null
  payload_json: string | null
  started: Date
  finished: Date | null
}

export async function runsOf(pool: pg.Pool, entrypoint: string): Promise<RunRow[]> {
  const { rows } = await pool.query<RunRow>(
    'SELECT job_id::text, entrypoint, side, attempts, payload_hex, payload_json, started, finished FROM interop_runs WHERE entrypoint = $1 ORDER BY seq',
    [entrypoint],
  )
  return rows
}

/**
 * node:test's `it` for the interop files: each test reports itself skipped, with the reason,
 * where `pgqueuerAbsent` says the suite cannot run here.
 */
export function it(name: string, fn: (t: TestContext) => Promise<void> | void): void {
  if (pgqueuerAbsent) nodeIt(name, { skip: pgqueuerAbsent }, () => {})
  else nodeIt(name, fn)
}

/**
 * The per-file bookkeeping of the suite: PgQueuer must be present (else every test fails with
 * one line saying what is missing, unless `pgqueuerAbsent` skips them), and every database and
 * process a test starts is stopped and dropped when the file ends, however it ended.
 */
export function interopFile() {
  const freshDatabase = freshDatabases({ empty: true })
  const aizkWorkers: SpawnedWorker[] = []
  const pgqWorkers: PgqWorker[] = []
  before(() => {
    if (!pgqueuerAbsent) requirePgQueuer()
  })
  freshDatabase.beforeDrop(async () => {
    await killAll(aizkWorkers)
    await Promise.all(pgqWorkers.map((w) => w.stop('SIGKILL')))
  })
  return {
    async scenario(opts: { adopt?: boolean } = {}) {
      return pgqueuerDatabase(opts, freshDatabase)
    },
    aizkWorker(db: TestDatabase, entrypoints: string[], env: Record<string, string> = {}) {
      const w = startAizkWorker(db, entrypoints, env)
      aizkWorkers.push(w)
      return w
    },
    pgqWorker(db: TestDatabase, entrypoints: string[], opts: PgqWorkerOptions = {}) {
      const w = startPgqWorker(db.url, entrypoints, opts)
      pgqWorkers.push(w)
      return w
    },
  }
}
