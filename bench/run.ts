/**
 * `npm run bench`: aizk's queue benchmark (issue 3 item 9). Not a test: it prints figures.
 * Every section runs in a scratch database created here and dropped at the end.
 *   (a) enqueue jobs/s: one per call with 16 in flight, and 1,000 a call
 *   (b) drain jobs/s of 20,000 pre-enqueued no-op jobs by one worker process at batch 64
 *   (c) idle latency enqueue -> handler start, p50/p95/p99, at 50 jobs/s
 *   (d) (b) again with 1,000,000 not-ready rows behind (half future execute_after of the same
 *       entrypoint, half an entrypoint no worker binds)
 *   (e) the floor: the same SQL through pgbench, no JavaScript
 *   (f) (d) with the not-ready rows in front of the drained jobs (lower ids), the pick's worst shape
 *   (g) AIZK_QUEUE_LOG_PARITY off vs on (bench/log-parity.ts), alternating rounds (BENCH_ROUNDS, 3)
 *   (h) drain of one entrypoint vs the same jobs spread over BENCH_SPREAD (20) entrypoints, and
 *   (i) drain with the live-count triggers off vs on (bench/drain-ab.ts), alternating rounds
 *   (j) drain at 16 and 64 in flight: batch BENCH_BATCH through the local queue vs the batch tied
 *       to the concurrency (bench/local-queue.ts), alternating rounds
 *   (graph) the memory graph's figures (bench/graph.ts; also `npm run bench:graph`), only when asked
 *       for: BENCH_SECTIONS="graph"
 *   (graph-maintenance) communities, RAPTOR and insights with peak memory
 *       (bench/graph-maintenance.ts; also `npm run bench:graph-maintenance`), only when asked for
 * Knobs (env): AIZK_BENCH_URL (server, default postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_SECTIONS ("a b c d e f h i j"), BENCH_JOBS (20000), BENCH_INFLIGHT (16), BENCH_BULK (1000),
 * BENCH_BATCH (64), BENCH_WORKER_CONCURRENCY (4 x batch), BENCH_LAT_JOBS (500), BENCH_LAT_RATE
 * (50), BENCH_BEHIND (1000000), BENCH_ROUNDS (3), BENCH_SPREAD (20), BENCH_LOCAL_CONCURRENCY ("16 64"), FLOOR_SECONDS (10), FLOOR_CLIENTS (16), FLOOR_POPULATION (600000).
 * Drain figures carry cpuMsPer1k: busy CPU of the whole machine per 1,000 jobs (bench/cpu.ts).
 * Diagnostics: BENCH_PROFILE=1 (worker statement timings and CPU on stderr), BENCH_CPU_PROF=dir
 * (a V8 CPU profile of the worker), BENCH_NO_COUNT_TRIGGERS=1 (what migration 0002's live-count
 * triggers cost: disables them in the scratch database).
 */
import pg from 'pg'
import { migrate } from '../src/db/migrate.js'
import { enqueue, enqueueMany } from '../src/queue/enqueue.js'
import { BENCH_ENTRYPOINT, monotonicMs } from './bench-jobs.js'
import { cpuBusyMs, cpuMsPer1k } from './cpu.js'
import { countTriggerSection, spreadSection } from './drain-ab.js'
import { aizkFloor, peersFloor } from './floor.js'
import { localQueueSection } from './local-queue.js'
import { logParitySection } from './log-parity.js'
import { type BenchWorker, forkBenchWorker } from './worker-process.js'

const env = process.env
const num = (name: string, d: number) => (env[name] ? Number(env[name]) : d)
const cfg = {
  server: env.AIZK_BENCH_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  sections: (env.BENCH_SECTIONS ?? 'a b c d e f h i j').split(/[\s,]+/).filter(Boolean),
  jobs: num('BENCH_JOBS', 20000),
  inflight: num('BENCH_INFLIGHT', 16),
  bulk: num('BENCH_BULK', 1000),
  batch: num('BENCH_BATCH', 64),
  concurrency: num('BENCH_WORKER_CONCURRENCY', num('BENCH_BATCH', 64) * 4),
  latJobs: num('BENCH_LAT_JOBS', 500),
  latRate: num('BENCH_LAT_RATE', 50),
  behind: num('BENCH_BEHIND', 1_000_000),
  floorSeconds: num('FLOOR_SECONDS', 10),
  floorClients: num('FLOOR_CLIENTS', 16),
  floorPopulation: num('FLOOR_POPULATION', 600_000),
}
const dbName = `aizk_bench_${process.pid}`
const urlOf = (db: string) => {
  const u = new URL(cfg.server)
  u.pathname = `/${db}`
  return u.toString()
}
const url = urlOf(dbName)
const rows: { section: string; what: string; value: string; note?: string }[] = []
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: cfg.server })
  await c.connect()
  try {
    await c.query(sql)
  } finally {
    await c.end()
  }
}

async function settle(pool: pg.Pool): Promise<void> {
  await pool.query('VACUUM ANALYZE')
  await pool.query('CHECKPOINT')
}

async function reset(pool: pg.Pool): Promise<void> {
  await pool.query('TRUNCATE pgqueuer, pgqueuer_log, aizk_queue_count, aizk_queue_count_delta, aizk_throughput')
}

async function sectionA(pool: pg.Pool): Promise<void> {
  await reset(pool)
  for (let i = 0; i < 32; i++) await enqueue(pool, { entrypoint: BENCH_ENTRYPOINT, payload: { i, warm: true } })
  await reset(pool)
  await settle(pool)
  let next = 0
  const t0 = monotonicMs()
  await Promise.all(
    Array.from({ length: cfg.inflight }, async () => {
      while (next < cfg.jobs) {
        const i = next++
        await enqueue(pool, { entrypoint: BENCH_ENTRYPOINT, payload: { i } })
      }
    }),
  )
  const single = cfg.jobs / ((monotonicMs() - t0) / 1000)
  rows.push({ section: 'a', what: `enqueue, 1 per call, ${cfg.inflight} in flight`, value: `${fmt(single)} jobs/s` })
  await reset(pool)
  await settle(pool)
  const t1 = monotonicMs()
  for (let b = 0; b < cfg.jobs; b += cfg.bulk) {
    const items = Array.from({ length: Math.min(cfg.bulk, cfg.jobs - b) }, (_, k) => ({ entrypoint: BENCH_ENTRYPOINT, payload: { i: b + k } }))
    await enqueueMany(pool, items)
  }
  const bulk = cfg.jobs / ((monotonicMs() - t1) / 1000)
  rows.push({ section: 'a', what: `enqueue, ${fmt(cfg.bulk)} per call`, value: `${fmt(bulk)} jobs/s` })
}

function spawnWorker(): Promise<BenchWorker> {
  const cpuProf = env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${env.BENCH_CPU_PROF}`] : []
  return forkBenchWorker({ url, batch: cfg.batch, concurrency: cfg.concurrency, execArgv: cpuProf })
}

async function enqueueBacklog(pool: pg.Pool, n: number, offset = 0): Promise<{ lo: string; hi: string }> {
  let lo = ''
  let hi = ''
  for (let b = 0; b < n; b += cfg.bulk) {
    const ids = await enqueueMany(
      pool,
      Array.from({ length: Math.min(cfg.bulk, n - b) }, (_, k) => ({ entrypoint: BENCH_ENTRYPOINT, payload: { i: offset + b + k } })),
    )
    if (!lo) lo = ids[0] as string
    hi = ids.at(-1) as string
  }
  return { lo, hi }
}

async function drain(pool: pg.Pool, label: string, section: string, queued?: { lo: string; hi: string }): Promise<number> {
  const range = queued ?? (await enqueueBacklog(pool, cfg.jobs))
  await settle(pool)
  const w = await spawnWorker()
  const cpu0 = cpuBusyMs()
  const { tStart } = await w.request<{ tStart: number }>('start', 'started')
  let rss = 0
  let left = cfg.jobs
  let tEnd = 0
  while (true) {
    const { rows: r } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM pgqueuer WHERE id BETWEEN $1 AND $2', [range.lo, range.hi])
    left = r[0].n
    if (left === 0) {
      tEnd = monotonicMs()
      break
    }
    const s = await w.request<{ rssMb: number }>('status', 'status')
    rss = Math.max(rss, s.rssMb)
    await sleep(left > 2000 ? 100 : left > 200 ? 25 : 5)
  }
  const cpu = cpuMsPer1k(cpu0, cfg.jobs)
  const s = await w.request<{ rssMb: number }>('status', 'status')
  rss = Math.max(rss, s.rssMb)
  await w.stop()
  const { rows: logged } = await pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pgqueuer_log WHERE job_id BETWEEN $1 AND $2 AND status = 'successful'",
    [range.lo, range.hi],
  )
  const rate = cfg.jobs / ((tEnd - tStart) / 1000)
  rows.push({ section, what: label, value: `${fmt(rate)} jobs/s`, note: `cpuMsPer1k ${cpu.toFixed(0)}, worker RSS max ${rss.toFixed(0)} MB, ${logged[0].n} log rows` })
  return rate
}

async function sectionB(pool: pg.Pool): Promise<number> {
  await reset(pool)
  return drain(pool, `drain ${fmt(cfg.jobs)} no-op jobs, 1 worker, batch ${cfg.batch}, concurrency ${cfg.concurrency}`, 'b')
}

async function sectionC(pool: pg.Pool): Promise<void> {
  await reset(pool)
  await settle(pool)
  const w = await spawnWorker()
  await w.request('start', 'started')
  await sleep(1000)
  for (let i = 0; i < 10; i++) await enqueue(pool, { entrypoint: BENCH_ENTRYPOINT, payload: { i, t0: monotonicMs(), warm: true } })
  await sleep(500)
  const start = monotonicMs()
  const calls: Promise<unknown>[] = []
  for (let i = 0; i < cfg.latJobs; i++) {
    const due = start + (i * 1000) / cfg.latRate
    const wait = due - monotonicMs()
    if (wait > 0) await sleep(wait)
    calls.push(enqueue(pool, { entrypoint: BENCH_ENTRYPOINT, payload: { i, t0: monotonicMs() } }))
  }
  await Promise.all(calls)
  let report: { latencies: number[] } = { latencies: [] }
  for (let tries = 0; tries < 200; tries++) {
    report = await w.request<{ latencies: number[] }>('report', 'report')
    if (report.latencies.length >= cfg.latJobs) break
    await sleep(25)
  }
  await w.stop()
  const sorted = [...report.latencies].sort((a, b) => a - b)
  const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((q / 100) * sorted.length) - 1))]
  rows.push({
    section: 'c',
    what: `latency enqueue -> handler start at ${cfg.latRate} jobs/s (${sorted.length} jobs)`,
    value: `p50 ${p(50).toFixed(2)} / p95 ${p(95).toFixed(2)} / p99 ${p(99).toFixed(2)} ms`,
  })
}

async function insertNotReady(pool: pg.Pool): Promise<void> {
  const future = Math.floor(cfg.behind / 2)
  await pool.query(
    `INSERT INTO pgqueuer (priority, entrypoint, payload, status, execute_after)
     SELECT 0, $1, convert_to('{"i":0}', 'UTF8'), 'queued', now() + interval '1 day' FROM generate_series(1, $2)`,
    [BENCH_ENTRYPOINT, future],
  )
  await pool.query(
    `INSERT INTO pgqueuer (priority, entrypoint, payload, status)
     SELECT 0, 'aizk_bench_unbound', convert_to('{"i":0}', 'UTF8'), 'queued' FROM generate_series(1, $1)`,
    [cfg.behind - future],
  )
}

/** (d) the not-ready rows come after the drained jobs in pick order (higher ids, same priority). */
async function sectionD(pool: pg.Pool, b: number | undefined): Promise<void> {
  await reset(pool)
  const range = await enqueueBacklog(pool, cfg.jobs)
  await insertNotReady(pool)
  const rate = await drain(pool, `drain as (b) with ${fmt(cfg.behind)} not-ready rows behind`, 'd', range)
  if (b) rows[rows.length - 1].note += `; ${((rate / b) * 100).toFixed(0)}% of (b)`
}

/** (f) the same rows in front: enqueued first, so lower ids at the same priority. */
async function sectionF(pool: pg.Pool, b: number | undefined): Promise<void> {
  await reset(pool)
  await insertNotReady(pool)
  const rate = await drain(pool, `drain as (b) with the ${fmt(cfg.behind)} not-ready rows in front (lower ids)`, 'f')
  if (b) rows[rows.length - 1].note += `; ${((rate / b) * 100).toFixed(0)}% of (b)`
}

async function sectionE(pool: pg.Pool): Promise<void> {
  await reset(pool)
  await pool.query(
    `INSERT INTO pgqueuer (priority, entrypoint, payload, status)
     SELECT (random() * 9)::int, $1, convert_to('{"i":1}', 'UTF8'), 'queued' FROM generate_series(1, $2)`,
    [BENCH_ENTRYPOINT, cfg.floorPopulation],
  )
  await settle(pool)
  const floor = await aizkFloor({ url, seconds: cfg.floorSeconds, clients: cfg.floorClients, entrypoint: BENCH_ENTRYPOINT })
  const { rows: left } = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pgqueuer WHERE status = 'queued'")
  rows.push({
    section: 'e',
    what: `floor: aizk_pick(64) + complete(64) by pgbench, ${cfg.floorClients} clients`,
    value: `${fmt(floor)} jobs/s`,
    note: left[0].n > 0 ? undefined : 'ran out of rows: raise FLOOR_POPULATION',
  })
  const peers = await peersFloor(cfg.server, cfg.floorSeconds).catch((err) => {
    rows.push({ section: 'e', what: 'peers floor (bench-peers/floor b64, c64)', value: 'failed', note: String(err).slice(0, 120) })
    return undefined
  })
  if (peers?.['L-b64'] && peers['L-c64']) {
    const ceiling = 1 / (1 / peers['L-b64'] + 1 / peers['L-c64'])
    rows.push({
      section: 'e',
      what: 'floor: bench-peers b64 pick + c64 complete (reference schema)',
      value: `${fmt(ceiling)} jobs/s`,
      note: `b64 ${fmt(peers['L-b64'])} rows/s, c64 ${fmt(peers['L-c64'])} rows/s`,
    })
  }
}

const ab = () => ({ url, batch: cfg.batch, concurrency: cfg.concurrency, jobs: cfg.jobs, rounds: num('BENCH_ROUNDS', 3) })

async function main(): Promise<void> {
  await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
  await admin(`CREATE DATABASE ${dbName}`)
  const pool = new pg.Pool({ connectionString: url, max: cfg.inflight + 1 })
  pool.on('error', () => {})
  try {
    const client = await pool.connect()
    try {
      await migrate(client, { appRole: env.AIZK_APP_ROLE ?? 'aizk_app' })
      // Diagnostic only: what the live-count triggers cost (BENCH_NO_COUNT_TRIGGERS=1).
      if (env.BENCH_NO_COUNT_TRIGGERS) {
        await client.query('ALTER TABLE pgqueuer DISABLE TRIGGER aizk_count_insert, DISABLE TRIGGER aizk_count_update, DISABLE TRIGGER aizk_count_delete')
        await client.query('ALTER TABLE pgqueuer_log DISABLE TRIGGER aizk_throughput_insert')
      }
    } finally {
      client.release()
    }
    let b: number | undefined
    for (const s of cfg.sections) {
      process.stderr.write(`bench: section ${s}\n`)
      if (s === 'a') await sectionA(pool)
      else if (s === 'b') b = await sectionB(pool)
      else if (s === 'c') await sectionC(pool)
      else if (s === 'd') await sectionD(pool, b)
      else if (s === 'e') await sectionE(pool)
      else if (s === 'f') await sectionF(pool, b)
      else if (s === 'g') rows.push(...(await logParitySection(pool, { url, batch: cfg.batch, concurrency: cfg.concurrency, jobs: cfg.jobs, inflight: cfg.inflight, rounds: num('BENCH_ROUNDS', 3) })))
      else if (s === 'h') rows.push(await spreadSection(pool, { ...ab(), spread: num('BENCH_SPREAD', 20) }))
      else if (s === 'i') rows.push(await countTriggerSection(pool, ab()))
      else if (s === 'j') {
        const concurrencies = (env.BENCH_LOCAL_CONCURRENCY ?? '16 64').split(/[\s,]+/).filter(Boolean).map(Number)
        rows.push(...(await localQueueSection(pool, { url, jobs: cfg.jobs, rounds: num('BENCH_ROUNDS', 3), batch: cfg.batch, concurrencies })))
      }
      else if (s === 'graph') await (await import('./graph.js')).runGraphBench()
      // The module runs its passes when loaded (it is also `npm run bench:graph-maintenance`).
      else if (s === 'graph-maintenance') await import('./graph-maintenance.js')
    }
  } finally {
    await pool.end()
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
  }
  const { rows: v } = await new pg.Pool({ connectionString: cfg.server, max: 1 }).query('SHOW server_version')
  process.stdout.write(`\naizk queue benchmark (node ${process.version}, PostgreSQL ${v[0].server_version}, ${os.cpus().length} cpus, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')})\n\n`)
  process.stdout.write('| | measurement | result | notes |\n|---|---|---|---|\n')
  for (const r of rows) process.stdout.write(`| ${r.section} | ${r.what} | ${r.value} | ${r.note ?? ''} |\n`)
}

import os from 'node:os'

await main()
process.exit(0)
