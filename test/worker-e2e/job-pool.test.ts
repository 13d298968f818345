/**
 * The handlers' pool of `aizk worker` (docs/deployment.md#the-handlers-pool): with
 * AIZK_WORKER_JOB_POOL_SIZE connections, at most that many handlers run SQL at once, whatever the
 * concurrency; the others wait for a connection and every job still runs once. Its statements have
 * the round-trip deadline, unless the job says they run long (docs/job-lifecycle.md#network-stalls).
 */
import assert from 'node:assert/strict'
import { afterEach, before, beforeEach, describe, it } from 'node:test'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { fileDatabase } from '../support/db.js'
import { waitFor } from '../support/wait-for.js'
import { FIXTURE_TABLES, isEvent, spawnWorker, type WorkerProcess, workerEnv } from '../support/worker-process.js'

const db = await fileDatabase()
const workers: WorkerProcess[] = []

before(async () => {
  await db.pool.query(FIXTURE_TABLES)
})
beforeEach(async () => {
  await db.pool.query('truncate pgqueuer, pgqueuer_log, aizk_worker, test_runs')
})
afterEach(async () => {
  for (const w of workers.splice(0)) await w.kill()
})

/** Runs `jobs` handlers that each hold a connection for 0.4 s; returns the most seen in pg_sleep at once. */
async function mostAtOnce(poolSize: string | undefined, jobs: number): Promise<number> {
  const extra: Record<string, string> = { AIZK_QUEUE_CONCURRENT_TASKS: '8', AIZK_WORKER_ENTRYPOINTS: 'test_sql_sleep' }
  if (poolSize) extra.AIZK_WORKER_JOB_POOL_SIZE = poolSize
  workers.push(spawnWorker(workerEnv(db.url, extra)))
  await enqueueMany(
    db.pool,
    Array.from({ length: jobs }, () => ({ entrypoint: 'test_sql_sleep', payload: { seconds: 0.4 } })),
  )
  let most = 0
  await waitFor(
    'every job recorded',
    async () => {
      const { rows } = await db.pool.query<{ sleeping: number; done: number }>(
        `select (select count(*)::int from pg_stat_activity
                  where datname = current_database() and application_name = 'aizk-worker-jobs'
                    and state = 'active' and query like 'SELECT pg_sleep%') as sleeping,
                (select count(*)::int from test_runs) as done`,
      )
      most = Math.max(most, rows[0].sleeping)
      return rows[0].done === jobs
    },
    { timeoutMs: 30_000, everyMs: 20 },
  )
  const runs = await db.pool.query<{ n: number; distinct: number }>('select count(*)::int as n, count(distinct job_id)::int as distinct from test_runs')
  assert.deepEqual(runs.rows[0], { n: jobs, distinct: jobs }, 'every job ran once')
  return most
}

describe('aizk worker: the handlers pool', () => {
  it('runs at most AIZK_WORKER_JOB_POOL_SIZE handlers in SQL at once', async () => {
    const most = await mostAtOnce('2', 8)
    assert.equal(most, 2, `two connections, so two handlers in pg_sleep at most (and at least, with eight waiting): saw ${most}`)
  })

  it('by default gives 8 in flight more connections than that', async () => {
    const most = await mostAtOnce(undefined, 8)
    assert.ok(most > 2, `the default pool (9 at concurrency 8) lets more than two sleep at once: saw ${most}`)
  })

  it('ends a handler statement at AIZK_DB_DEADLINE_SECONDS and retries its job; a job that says its statements run long keeps them', async () => {
    const w = spawnWorker(
      workerEnv(db.url, {
        AIZK_DB_DEADLINE_SECONDS: '1',
        AIZK_RETRY_BASE_SECONDS: '0.05',
        AIZK_RETRY_MAX_SECONDS: '0.2',
        AIZK_WORKER_ENTRYPOINTS: 'test_sql_sleep,test_sql_long,test_sql_long_ctx',
      }),
    )
    workers.push(w)
    await w.waitFor(isEvent('worker:started'), 'the worker to start')
    const [short] = (await enqueueMany(db.pool, [{ entrypoint: 'test_sql_sleep', payload: { seconds: 1.6 } }])) as string[]
    const long = (await enqueueMany(db.pool, [
      { entrypoint: 'test_sql_long', payload: { seconds: 1.6 } },
      { entrypoint: 'test_sql_long_ctx', payload: { seconds: 1.6 } },
    ])) as string[]
    const retried = await w.waitFor((e) => e.event === 'job:retried' && e.jobId === short, 'the statement past the deadline to fail its job', 20_000)
    assert.match(String(retried.error), /no reply from PostgreSQL within 1000 ms/)
    await waitFor(
      'the jobs that said so to finish',
      async () => (await db.pool.query('select 1 from test_runs where job_id = any($1::bigint[])', [long])).rowCount === 2,
      20_000,
    )
    assert.deepEqual(
      w.events.filter((e) => e.event === 'job:retried' && long.includes(String(e.jobId))),
      [],
      'a statement under its declared deadline is not ended',
    )
  })

  it('refuses a pool of no connections, naming the setting', async () => {
    const w = spawnWorker(workerEnv(db.url, { AIZK_WORKER_JOB_POOL_SIZE: '0', AIZK_WORKER_ENTRYPOINTS: 'test_sql_sleep' }))
    workers.push(w)
    const { code } = await w.exited
    assert.equal(code, 3, 'a configuration error exits 3')
    assert.match(w.stderr(), /AIZK_WORKER_JOB_POOL_SIZE/)
  })
})
