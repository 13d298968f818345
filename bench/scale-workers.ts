/**
 * How drain throughput scales with worker processes against one server (issue 5): the drain of
 * 20,000 pre-enqueued no-op jobs (the bench entrypoint) by 1, 2 and 4 worker processes, each
 * the same Worker loop `aizk worker` runs (bench/worker-child.ts), batch 64, 4 x batch running.
 * Not a test: it prints a table. Run: `node --import tsx bench/scale-workers.ts`.
 * Knobs (env): docs/benchmarks.md#knobs (BENCH_JOBS, BENCH_BATCH, BENCH_WORKER_CONCURRENCY,
 * BENCH_PROCESSES, BENCH_REPEAT).
 */
import os from 'node:os'
import pg from 'pg'
import { enqueueMany } from '../src/queue/enqueue.js'
import { BENCH_ENTRYPOINT, monotonicMs } from './bench-jobs.js'
import { benchServer, num, words } from './knobs.js'
import { createScratchDb } from './scratch-db.js'
import { forkBenchWorker } from './worker-process.js'

const cfg = {
  server: benchServer(),
  jobs: num('BENCH_JOBS', 20000),
  batch: num('BENCH_BATCH', 64),
  concurrency: num('BENCH_WORKER_CONCURRENCY', num('BENCH_BATCH', 64) * 4),
  processes: words('BENCH_PROCESSES', '1 2 4').map(Number),
  repeat: num('BENCH_REPEAT', 1),
}
let url = ''
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const forkWorker = () => forkBenchWorker({ url, batch: cfg.batch, concurrency: cfg.concurrency })

async function drainWith(pool: pg.Pool, processes: number): Promise<{ rate: number; seconds: number; shares: number[]; rssMb: number }> {
  await pool.query('TRUNCATE pgqueuer, pgqueuer_log, aizk_queue_count, aizk_queue_count_delta, aizk_throughput')
  for (let b = 0; b < cfg.jobs; b += 1000) {
    await enqueueMany(
      pool,
      Array.from({ length: Math.min(1000, cfg.jobs - b) }, (_, k) => ({ entrypoint: BENCH_ENTRYPOINT, payload: { i: b + k } })),
    )
  }
  await pool.query('VACUUM ANALYZE')
  await pool.query('CHECKPOINT')
  const workers = await Promise.all(Array.from({ length: processes }, () => forkWorker()))
  const t0 = monotonicMs()
  await Promise.all(workers.map((w) => w.request('start', 'started')))
  let rssMb = 0
  for (;;) {
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM pgqueuer')
    if (rows[0].n === 0) break
    const statuses = await Promise.all(workers.map((w) => w.request<{ rssMb: number }>('status', 'status')))
    rssMb = Math.max(rssMb, ...statuses.map((s) => s.rssMb))
    await sleep(rows[0].n > 2000 ? 50 : 5)
  }
  const seconds = (monotonicMs() - t0) / 1000
  const finals = await Promise.all(workers.map((w) => w.request<{ handled: number }>('report', 'report')))
  await Promise.all(workers.map((w) => w.stop()))
  const { rows: logged } = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pgqueuer_log WHERE status = 'successful'")
  if (logged[0].n !== cfg.jobs) throw new Error(`expected ${cfg.jobs} log rows, found ${logged[0].n}`)
  return { rate: cfg.jobs / seconds, seconds, shares: finals.map((f) => f.handled), rssMb }
}

async function main(): Promise<void> {
  const scratch = await createScratchDb(`aizk_bench_scale_${process.pid}`)
  url = scratch.url
  const pool = new pg.Pool({ connectionString: url, max: 4 })
  try {
    console.log(
      `scale-workers: ${fmt(cfg.jobs)} no-op jobs, batch ${cfg.batch}, ${cfg.concurrency} running per process, ${os.cpus().length} CPUs, server ${new URL(cfg.server).host}`,
    )
    const table: string[][] = [['processes', 'drain s', 'jobs/s', 'vs 1 process', 'jobs per process', 'max RSS MB']]
    let base = 0
    for (const n of cfg.processes) {
      const runs = []
      for (let r = 0; r < cfg.repeat; r++) runs.push(await drainWith(pool, n))
      runs.sort((a, b) => a.rate - b.rate)
      const m = runs[Math.floor(runs.length / 2)]
      base ||= m.rate
      table.push([String(n), m.seconds.toFixed(2), fmt(m.rate), `${(m.rate / base).toFixed(2)}x`, m.shares.map(fmt).join(' / '), m.rssMb.toFixed(0)])
    }
    const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)))
    for (const row of table) console.log(row.map((cell, i) => (i === 4 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '))
  } finally {
    await pool.end()
    await scratch.drop()
  }
}

await main()
