/**
 * Section `pgbouncer` of `npm run bench` (only when named; needs `npm run build`): many worker
 * replicas on one PostgreSQL through PgBouncer with pool_mode=transaction (docs/deployment.md#pgbouncer).
 * BENCH_PGBOUNCER_WORKERS (50) `aizk worker` processes, concurrency BENCH_PGBOUNCER_CONCURRENCY (4)
 * each, AIZK_DATABASE_POOL_MODE=transaction, no direct URL (they poll), drain BENCH_PGBOUNCER_JOBS
 * (200,000) jobs through a PgBouncer of BENCH_PGBOUNCER_POOL (20) server connections, against one
 * worker process on PostgreSQL directly, at the same and at the default concurrency. Each job is
 * test_record (test/fixtures/test-jobs.mjs): one INSERT into test_runs on the worker's own pool,
 * so a job run twice shows as two rows. Prints the rates, the ratio, what was lost or run twice,
 * and the most server connections seen: SHOW POOLS / SHOW SERVERS on PgBouncer's console and the
 * workers' backends in pg_stat_activity, sampled every 100 ms.
 */
import os from 'node:os'
import type pg from 'pg'
import { type PgBouncer, pgbouncerBinary, startPgBouncer } from '../test/support/pgbouncer.js'
import { spawnWorker, type WorkerProcess } from '../test/support/worker-process.js'
import { monotonicMs } from './bench-jobs.js'
import type { Row } from './graph-rows.js'
import { benchServer, num, words } from './knobs.js'
import { cpuSeconds } from './process-stats.js'

const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface DrainResult {
  rate: number
  seconds: number
  lost: number
  twice: number
  maxPoolServers: number
  maxBackends: number
  /** Seconds from the commit to half and to nine tenths of the jobs done. */
  half: number
  most: number
  /** CPU ms per 1,000 jobs: the worker processes, and PgBouncer. */
  workerCpu: number
  bouncerCpu: number
}

const workerEnv = (url: string, concurrency: number, extra: Record<string, string> = {}) => ({
  AIZK_DATABASE_URL: url,
  AIZK_WORKER_JOB_MODULES: './test/fixtures/test-jobs.mjs',
  AIZK_WORKER_ENTRYPOINTS: 'test_record',
  AIZK_WORKER_NO_SCHEDULER: 'true',
  AIZK_WORKER_OUTPUT: 'json',
  AIZK_WORKER_LOG_JOBS: 'false',
  AIZK_QUEUE_CONCURRENT_TASKS: String(concurrency),
  ...extra,
})

/** Workers already running and idle; the jobs arrive in one INSERT, timed from its commit to an empty queue. */
async function drain(pool: pg.Pool, jobs: number, workers: WorkerProcess[], bouncer?: PgBouncer, database?: string): Promise<DrainResult> {
  await pool.query('TRUNCATE pgqueuer, pgqueuer_log, test_runs')
  await pool.query('VACUUM ANALYZE pgqueuer')
  let maxPoolServers = 0
  let maxBackends = 0
  let sampling = true
  const sampler = (async () => {
    while (sampling) {
      const { rows } = await pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'aizk-worker%'",
      )
      maxBackends = Math.max(maxBackends, rows[0].n)
      if (bouncer && database) {
        const mine = (await bouncer.pools()).find((p) => p.database === database)
        maxPoolServers = Math.max(maxPoolServers, mine?.servers ?? 0, await bouncer.servers(database))
      }
      await sleep(100)
    }
  })()
  const cpu = () => workers.reduce((a, w) => a + cpuSeconds(w.child.pid as number), 0)
  const cpu0 = cpu()
  const bouncer0 = bouncer ? cpuSeconds(bouncer.pid) : 0
  try {
    await pool.query(
      `INSERT INTO pgqueuer (priority, entrypoint, payload, status)
       SELECT 0, 'test_record', convert_to('{}', 'UTF8'), 'queued' FROM generate_series(1, $1)`,
      [jobs],
    )
    const t0 = monotonicMs()
    let half = 0
    let most = 0
    for (;;) {
      const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM pgqueuer')
      const left = rows[0].n
      if (!half && left <= jobs / 2) half = (monotonicMs() - t0) / 1000
      if (!most && left <= jobs / 10) most = (monotonicMs() - t0) / 1000
      if (left === 0) break
      await sleep(left > 2000 ? 200 : 20)
    }
    const seconds = (monotonicMs() - t0) / 1000
    const workerCpu = ((cpu() - cpu0) * 1e6) / jobs
    const bouncerCpu = bouncer ? ((cpuSeconds(bouncer.pid) - bouncer0) * 1e6) / jobs : 0
    const { rows } = await pool.query<{ ran: number; twice: number; logged: number }>(
      `SELECT (SELECT count(DISTINCT job_id) FROM test_runs)::int AS ran,
              (SELECT count(*) FROM (SELECT job_id FROM test_runs GROUP BY 1 HAVING count(*) > 1) t)::int AS twice,
              (SELECT count(DISTINCT job_id) FROM pgqueuer_log WHERE status = 'successful')::int AS logged`,
    )
    const r = rows[0]
    return {
      rate: jobs / seconds,
      seconds,
      lost: jobs - Math.min(r.ran, r.logged),
      twice: r.twice,
      maxPoolServers,
      maxBackends,
      half,
      most,
      workerCpu,
      bouncerCpu,
    }
  } finally {
    sampling = false
    await sampler
    for (const w of workers) await w.stop()
  }
}

async function startWorkers(n: number, env: Record<string, string>): Promise<WorkerProcess[]> {
  const workers: WorkerProcess[] = []
  // A few at a time: fifty node processes starting at once on a small machine only queue for CPU.
  for (let i = 0; i < n; i += 5) {
    const batch = Array.from({ length: Math.min(5, n - i) }, () => spawnWorker(env))
    workers.push(...batch)
    await Promise.all(batch.map((w) => w.waitFor((e) => e.event === 'worker:started', 'worker started', 300_000)))
  }
  return workers
}

export async function pgbouncerSection(pool: pg.Pool, database: string, directUrl: string): Promise<Row[]> {
  const jobs = num('BENCH_PGBOUNCER_JOBS', 200_000)
  const counts = words('BENCH_PGBOUNCER_WORKERS', '50').map(Number)
  const concurrency = num('BENCH_PGBOUNCER_CONCURRENCY', 4)
  const poolSize = num('BENCH_PGBOUNCER_POOL', 20)
  // Each spawned worker's helper kills it if this process exits first.
  process.setMaxListeners(Math.max(...counts) + 20)
  const binary = pgbouncerBinary()
  if ('skip' in binary) return [{ section: 'pgbouncer', what: 'many replicas through PgBouncer', value: 'not run', note: binary.skip }]
  await pool.query(
    'CREATE TABLE IF NOT EXISTS test_runs (id bigserial primary key, job_id bigint, entrypoint text, attempts int, pid int, note text, at timestamptz default now())',
  )
  const rows: Row[] = []
  const show = (what: string, d: DrainResult, note = '') => {
    const cpu = `workers' CPU ${fmt(d.workerCpu)} ms/1k jobs${d.bouncerCpu ? `, PgBouncer's ${fmt(d.bouncerCpu)}` : ''}`
    const row = {
      section: 'pgbouncer',
      what,
      value: `${fmt(d.rate)} jobs/s`,
      note: `${d.seconds.toFixed(1)} s (half done at ${d.half.toFixed(1)}, 90% at ${d.most.toFixed(1)}); lost ${d.lost}, run twice ${d.twice}; ${cpu}; load ${os.loadavg()[0].toFixed(0)}; ${note}`,
    }
    process.stderr.write(`bench: ${row.what} | ${row.value} | ${row.note}\n`)
    rows.push(row)
  }
  const direct4 = await drain(pool, jobs, await startWorkers(1, workerEnv(directUrl, concurrency)))
  show(`1 worker process direct, concurrency ${concurrency}, ${fmt(jobs)} jobs`, direct4, `${direct4.maxBackends} backends max`)
  const directDefault = await drain(pool, jobs, await startWorkers(1, workerEnv(directUrl, 256)))
  show(`1 worker process direct, concurrency 256 (the default at batch 64), ${fmt(jobs)} jobs`, directDefault, `${directDefault.maxBackends} backends max`)
  const bouncer = await startPgBouncer(binary.path, { server: benchServer(), poolSize, maxClients: Math.max(...counts) * 40 })
  try {
    const pooledUrl = bouncer.url(database)
    for (const processes of counts) {
      const workers = await startWorkers(processes, workerEnv(pooledUrl, concurrency, { AIZK_DATABASE_POOL_MODE: 'transaction' }))
      const pooled = await drain(pool, jobs, workers, bouncer, database)
      show(
        `${processes} worker processes through PgBouncer (pool ${poolSize}, transaction pooling, polling), concurrency ${concurrency} each, ${fmt(jobs)} jobs`,
        pooled,
        `server connections max ${pooled.maxPoolServers} (PgBouncer) / ${pooled.maxBackends} worker backends (pg_stat_activity), pool ${poolSize}; ${(pooled.rate / direct4.rate).toFixed(2)}x 1 direct at concurrency ${concurrency}, ${(pooled.rate / directDefault.rate).toFixed(2)}x 1 direct at 256`,
      )
    }
  } finally {
    await bouncer.stop()
  }
  return rows
}
