/**
 * `npm run bench`: aizk's queue benchmark (issue 3 item 9). Not a test: it prints figures.
 * Every section runs in a scratch database created here and dropped at the end.
 *   (a) enqueue jobs/s: one per call with 16 in flight, and 1,000 a call, each with its cpuMsPer1k
 *       and its ratio to the floors: the harness's an / a64 (BENCH_PEERS_FLOOR, or a checkout beside
 *       this one) when present, and the same SQL by pgbench on aizk's own pgqueuer table (an and
 *       a64 with BENCH_FLOOR_CLIENTS clients, and the 1,000-row INSERT from one client, as one caller
 *       sends it; bench/floor.ts)
 *   (b) drain jobs/s of 20,000 pre-enqueued no-op jobs by one worker process at batch 64
 *   (c) idle latency enqueue -> handler start, p50/p95/p99, at 50 jobs/s, run as the peer
 *       harness's W3 runs it (bench/peers-adapter.mjs, default profile at BENCH_CONCURRENCY 16)
 *   (d) (b) again with 1,000,000 not-ready rows behind (half future execute_after of the same
 *       entrypoint, half an entrypoint no worker binds)
 *   (e) the floor: the same SQL through pgbench, no JavaScript
 *   (f) (d) with the not-ready rows in front of the drained jobs (lower ids), the pick's worst shape
 *   (g) AIZK_QUEUE_LOG_PARITY off vs on (bench/log-parity.ts), alternating rounds (BENCH_ROUNDS, 3)
 *   (h) drain of one entrypoint vs the same jobs spread over BENCH_SPREAD (20) entrypoints, and
 *   (i) drain with the live-count and throughput triggers off vs on (bench/drain-ab.ts), alternating rounds
 *   (u) drain with pgqueuer_log logged vs unlogged, the `durable` and `balanced` levels
 *       (bench/drain-ab.ts), alternating rounds, only when asked for
 *   (j) drain at 16 and 64 in flight: batch BENCH_BATCH through the local queue vs the batch tied
 *       to the concurrency (bench/local-queue.ts), alternating rounds
 *   (k) where an enqueue's server time goes: the a64 floor statement on aizk's pgqueuer as
 *       migrated, without triggers, with PgQueuer's indexes only, with the harness table's two
 *       (bench/insert-floor.ts), only when asked for
 *   (l) section c beside its floor: a bare LISTEN + one-statement pick worker on the same
 *       schedule (bench/latency-floor-child.ts), alternating rounds, only when asked for
 *   (t) OpenTelemetry tracing off (no SDK, the default) vs on (every span exported over OTLP/HTTP
 *       to a local sink), alternating rounds (bench/tracing-ab.ts), and the hooks' own cost per
 *       job with no SDK, only when asked for
 *   (pgbouncer) many worker processes through PgBouncer against one direct (bench/pgbouncer.ts),
 *       only when asked for
 *   (graph) the memory graph's figures (bench/graph.ts; also `npm run bench:graph`), only when asked
 *       for: BENCH_SECTIONS="graph"
 *   (recall) recall's p50/p95 at 10,000, 100,000 and 1,000,000 claims over 1,000 scope sets, with
 *       the index scans that carried it (bench/recall-bench.ts; BENCH_RECALL_SIZES, BENCH_RECALL_SETS,
 *       BENCH_RECALL_QUERIES), only when asked for: BENCH_SECTIONS="recall"
 *   (graph-maintenance) communities, RAPTOR and insights with peak memory
 *       (bench/graph-maintenance.ts; also `npm run bench:graph-maintenance`), only when asked for
 * Knobs (env): docs/benchmarks.md#knobs.
 * Drain figures carry cpuMsPer1k: busy CPU of the whole machine per 1,000 jobs (bench/cpu.ts), and
 * own CPU: the worker process plus the scratch database's backends per 1,000 jobs, which holds on
 * a busy machine; (d) and (f) print both their rate and their own CPU against (b)'s.
 * Diagnostics: BENCH_PROFILE=1 (worker statement timings and CPU on stderr), BENCH_CPU_PROF=dir
 * (a V8 CPU profile of the worker), BENCH_NO_COUNT_TRIGGERS=1 (what migration 0002's live-count
 * triggers cost: disables them in the scratch database).
 */
import pg from 'pg'
import { enqueue, enqueueMany } from '../src/queue/enqueue.js'
import { BENCH_ENTRYPOINT, monotonicMs } from './bench-jobs.js'
import { backendCpuMs, backendCpuSpent, cpuBusyMs, cpuMsPer1k } from './cpu.js'
import { countTriggerSection, logPersistenceSection, spreadSection } from './drain-ab.js'
import { aizkEnqueueFloor, aizkFloor, type EnqueueFloorTest, peersFloor, peersFloorScript } from './floor.js'
import { insertFloorSection } from './insert-floor.js'
import { benchServer, flag, num, text, words } from './knobs.js'
import { localQueueSection } from './local-queue.js'
import { logParitySection } from './log-parity.js'
import { pgbouncerSection } from './pgbouncer.js'
import { createScratchDb } from './scratch-db.js'
import { tracingSection } from './tracing-ab.js'
import { type BenchWorker, type BenchWorkerOptions, forkBenchWorker } from './worker-process.js'

const cfg = {
  server: benchServer(),
  sections: words('BENCH_SECTIONS', 'a b c d e f h i j'),
  jobs: num('BENCH_JOBS', 20000),
  inflight: num('BENCH_INFLIGHT', 16),
  bulk: num('BENCH_BULK', 1000),
  batch: num('BENCH_BATCH', 64),
  concurrency: num('BENCH_WORKER_CONCURRENCY', num('BENCH_BATCH', 64) * 4),
  latJobs: num('BENCH_LAT_JOBS', 500),
  latRate: num('BENCH_LAT_RATE', 50),
  // The peer harness's BENCH_CONCURRENCY, which its W3 worker runs at.
  latConcurrency: num('BENCH_LAT_CONCURRENCY', 16),
  behind: num('BENCH_BEHIND', 1_000_000),
  floorSeconds: num('BENCH_FLOOR_SECONDS', 10),
  floorClients: num('BENCH_FLOOR_CLIENTS', 16),
  floorPopulation: num('BENCH_FLOOR_POPULATION', 600_000),
  rounds: num('BENCH_ROUNDS', 3),
}
let url = ''
const rows: { section: string; what: string; value: string; note?: string }[] = []
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

async function settle(pool: pg.Pool): Promise<void> {
  await pool.query('VACUUM ANALYZE')
  await pool.query('CHECKPOINT')
}

async function reset(pool: pg.Pool): Promise<void> {
  await pool.query('TRUNCATE pgqueuer, pgqueuer_log, aizk_queue_count, aizk_queue_count_delta, aizk_throughput')
}

/** The harness's enqueue floor `test` (its bare table), rows/s, when its floor script is here. */
async function harnessEnqueueFloor(test: 'an' | 'a64'): Promise<{ value: number; what: string } | undefined> {
  if (!peersFloorScript()) return undefined
  const value = (await peersFloor(cfg.server, cfg.floorSeconds, [test]))?.[`L-${test}`]
  return value ? { value, what: `bench-peers ${test}, pgbench ${cfg.floorClients} clients` } : undefined
}

/**
 * The same enqueue by pgbench on this scratch database's own pgqueuer table (PgQueuer's indexes,
 * aizk's, every trigger): what any client can reach on this schema, with `clients` connections.
 */
async function ownEnqueueFloor(pool: pg.Pool, test: EnqueueFloorTest, clients: number): Promise<{ value: number; what: string }> {
  await reset(pool)
  await settle(pool)
  const value = await aizkEnqueueFloor({ url, seconds: cfg.floorSeconds, clients, entrypoint: BENCH_ENTRYPOINT }, test)
  await reset(pool)
  return { value, what: `${test} on aizk's pgqueuer, pgbench ${clients} client${clients === 1 ? '' : 's'}` }
}

function floorNote(rate: number, cpu: number, floors: ({ value: number; what: string } | undefined)[]): string {
  const ratios = floors.filter((f) => f !== undefined).map((f) => `${(rate / f.value).toFixed(2)} of ${f.what} (${fmt(f.value)} rows/s)`)
  return `${ratios.join('; ')}; cpuMsPer1k ${cpu.toFixed(0)}`
}

async function sectionA(pool: pg.Pool): Promise<void> {
  await reset(pool)
  for (let i = 0; i < 32; i++) await enqueue(pool, { entrypoint: BENCH_ENTRYPOINT, payload: { i, warm: true } })
  await enqueueMany(pool, [{ entrypoint: BENCH_ENTRYPOINT, payload: { warm: true } }])
  await reset(pool)
  await settle(pool)
  let next = 0
  const cpu0 = cpuBusyMs()
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
  const singleCpu = cpuMsPer1k(cpu0, cfg.jobs)
  const singleFloors = [await harnessEnqueueFloor('an'), await ownEnqueueFloor(pool, 'an', cfg.floorClients)]
  rows.push({
    section: 'a',
    what: `enqueue, 1 per call, ${cfg.inflight} in flight`,
    value: `${fmt(single)} jobs/s`,
    note: floorNote(single, singleCpu, singleFloors),
  })
  await reset(pool)
  await settle(pool)
  const cpu1 = cpuBusyMs()
  const t1 = monotonicMs()
  for (let b = 0; b < cfg.jobs; b += cfg.bulk) {
    const items = Array.from({ length: Math.min(cfg.bulk, cfg.jobs - b) }, (_, k) => ({ entrypoint: BENCH_ENTRYPOINT, payload: { i: b + k } }))
    await enqueueMany(pool, items)
  }
  const bulk = cfg.jobs / ((monotonicMs() - t1) / 1000)
  const bulkCpu = cpuMsPer1k(cpu1, cfg.jobs)
  // One call at a time is one connection: its own floor is the same 1,000-row INSERT from one client.
  const bulkFloors = [await harnessEnqueueFloor('a64'), await ownEnqueueFloor(pool, 'a64', cfg.floorClients), await ownEnqueueFloor(pool, 'a1000', 1)]
  rows.push({ section: 'a', what: `enqueue, ${fmt(cfg.bulk)} per call`, value: `${fmt(bulk)} jobs/s`, note: floorNote(bulk, bulkCpu, bulkFloors) })
}

function spawnWorker(): Promise<BenchWorker> {
  const profDir = text('BENCH_CPU_PROF')
  const cpuProf = profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []
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

/** A drain's figures: jobs/s, and own CPU ms per 1,000 jobs (worker process + database backends). */
interface Drained {
  rate: number
  own: number
}

async function drain(pool: pg.Pool, label: string, section: string, queued?: { lo: string; hi: string }): Promise<Drained> {
  const range = queued ?? (await enqueueBacklog(pool, cfg.jobs))
  await settle(pool)
  const w = await spawnWorker()
  const cpu0 = cpuBusyMs()
  const back0 = await backendCpuMs(pool)
  const { tStart, cpuMs: w0 } = await w.request<{ tStart: number; cpuMs: number }>('start', 'started')
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
  const s = await w.request<{ rssMb: number; cpuMs: number }>('status', 'status')
  rss = Math.max(rss, s.rssMb)
  const own = ((s.cpuMs - w0 + backendCpuSpent(back0, await backendCpuMs(pool))) / cfg.jobs) * 1000
  await w.stop()
  const { rows: logged } = await pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pgqueuer_log WHERE job_id BETWEEN $1 AND $2 AND status = 'successful'",
    [range.lo, range.hi],
  )
  const rate = cfg.jobs / ((tEnd - tStart) / 1000)
  rows.push({
    section,
    what: label,
    value: `${fmt(rate)} jobs/s`,
    note: `cpuMsPer1k ${cpu.toFixed(0)}, own CPU ${own.toFixed(0)} ms/1k jobs, worker RSS max ${rss.toFixed(0)} MB, ${logged[0].n} log rows`,
  })
  return { rate, own }
}

/** (d) and (f) against (b), in the same run: rate as a share of (b)'s, own CPU as a multiple of it. */
function againstB(d: Drained, b: Drained | undefined): void {
  if (b) rows[rows.length - 1].note += `; ${((d.rate / b.rate) * 100).toFixed(0)}% of (b), own CPU ${(d.own / b.own).toFixed(2)}x (b)`
}

async function sectionB(pool: pg.Pool): Promise<Drained> {
  await reset(pool)
  return drain(pool, `drain ${fmt(cfg.jobs)} no-op jobs, 1 worker, batch ${cfg.batch}, concurrency ${cfg.concurrency}`, 'b')
}

/**
 * One latency round, as the peer harness's W3 runs it (same count, rate, schedule, warm-up,
 * worker batch and concurrency, percentile): an idle worker, then BENCH_LAT_JOBS single enqueues
 * on an absolute schedule at BENCH_LAT_RATE jobs/s, t0 taken just before each call.
 * `durablePick`: the worker's picks wait for the WAL flush as before (the A/B of BENCH_LAT_AB).
 */
async function latencyRound(pool: pg.Pool, durablePick: boolean, child?: BenchWorkerOptions['child']): Promise<number[]> {
  await reset(pool)
  await settle(pool)
  const w = await forkBenchWorker({ url, batch: cfg.batch, concurrency: cfg.latConcurrency, env: durablePick ? { BENCH_DURABLE_PICK: '1' } : {}, child })
  await w.request('start', 'started')
  const gap = 1000 / cfg.latRate
  for (let i = 0; i < 10; i++) {
    await enqueue(pool, { entrypoint: BENCH_ENTRYPOINT, payload: { i, t0: monotonicMs(), warm: true } })
    await sleep(gap)
  }
  await sleep(1000)
  const base = monotonicMs() + 20
  const calls: Promise<unknown>[] = []
  for (let i = 0; i < cfg.latJobs; i++) {
    const due = base + i * gap
    const wait = due - monotonicMs()
    if (wait > 1) await sleep(wait - 0.5)
    while (monotonicMs() < due) {
      // Spin the last < 1 ms for an even schedule.
    }
    calls.push(enqueue(pool, { entrypoint: BENCH_ENTRYPOINT, payload: { i, t0: monotonicMs() } }))
  }
  await Promise.all(calls)
  let report: { latencies: number[] } = { latencies: [] }
  for (let tries = 0; tries < 1200; tries++) {
    report = await w.request<{ latencies: number[] }>('report', 'report')
    if (report.latencies.length >= cfg.latJobs) break
    await sleep(25)
  }
  await w.stop()
  return [...report.latencies].sort((a, b) => a - b)
}

/** The harness's percentile (nearest rank). */
const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((q / 100) * sorted.length) - 1))]
const latencyFigure = (s: number[]) => `p50 ${percentile(s, 50).toFixed(2)} / p95 ${percentile(s, 95).toFixed(2)} / p99 ${percentile(s, 99).toFixed(2)} ms`

async function sectionC(pool: pg.Pool): Promise<void> {
  const what = (pick: string) =>
    `latency enqueue -> handler start at ${cfg.latRate} jobs/s (${fmt(cfg.latJobs)} jobs, batch ${cfg.batch}, concurrency ${cfg.latConcurrency})${pick}`
  if (!flag('BENCH_LAT_AB')) {
    const s = await latencyRound(pool, false)
    rows.push({ section: 'c', what: what(''), value: latencyFigure(s), note: `${s.length} samples` })
    return
  }
  // BENCH_LAT_AB=1: the lease pick against the durable pick, alternating rounds (BENCH_ROUNDS).
  const rounds = cfg.rounds
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? [true, false] : [false, true]
    const got: Record<string, number[]> = {}
    for (const durable of order) got[String(durable)] = await latencyRound(pool, durable)
    const lease = got.false
    const durable = got.true
    const ratio = (q: number) => (percentile(lease, q) / percentile(durable, q)).toFixed(2)
    const load = os.loadavg()[0].toFixed(1)
    rows.push({
      section: 'c',
      what: what(`, round ${r + 1}: lease pick`),
      value: latencyFigure(lease),
      note: `load ${load}; ÷ durable pick: p50 ${ratio(50)}, p99 ${ratio(99)}`,
    })
    rows.push({ section: 'c', what: what(`, round ${r + 1}: durable pick`), value: latencyFigure(durable), note: `load ${load}` })
  }
}

/**
 * (l) section c against its floor: aizk's worker and the bare floor worker
 * (bench/latency-floor-child.ts) alternating, BENCH_ROUNDS rounds of the same schedule.
 */
async function sectionL(pool: pg.Pool): Promise<void> {
  const rounds = cfg.rounds
  const all: Record<'aizk' | 'floor', number[]> = { aizk: [], floor: [] }
  for (let r = 0; r < rounds; r++) {
    const order: ('aizk' | 'floor')[] = r % 2 ? ['floor', 'aizk'] : ['aizk', 'floor']
    for (const who of order) all[who].push(...(await latencyRound(pool, false, who === 'floor' ? 'latency-floor-child.ts' : undefined)))
  }
  for (const s of Object.values(all)) s.sort((a, b) => a - b)
  const ratio = (q: number) => (percentile(all.aizk, q) / percentile(all.floor, q)).toFixed(2)
  const what = `latency at ${cfg.latRate} jobs/s, ${rounds} alternating rounds of ${fmt(cfg.latJobs)} jobs`
  rows.push({
    section: 'l',
    what: `${what}: aizk's worker (as c)`,
    value: latencyFigure(all.aizk),
    note: `÷ the floor: p50 ${ratio(50)}, p95 ${ratio(95)}, p99 ${ratio(99)}`,
  })
  rows.push({
    section: 'l',
    what: `${what}: the floor (LISTEN + one bare pick statement, lease commit)`,
    value: latencyFigure(all.floor),
    note: `${all.floor.length} samples`,
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
async function sectionD(pool: pg.Pool, b: Drained | undefined): Promise<void> {
  await reset(pool)
  const range = await enqueueBacklog(pool, cfg.jobs)
  await insertNotReady(pool)
  againstB(await drain(pool, `drain as (b) with ${fmt(cfg.behind)} not-ready rows behind`, 'd', range), b)
}

/** (f) the same rows in front: enqueued first, so lower ids at the same priority. */
async function sectionF(pool: pg.Pool, b: Drained | undefined): Promise<void> {
  await reset(pool)
  await insertNotReady(pool)
  againstB(await drain(pool, `drain as (b) with the ${fmt(cfg.behind)} not-ready rows in front (lower ids)`, 'f'), b)
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

const ab = () => ({ url, batch: cfg.batch, concurrency: cfg.concurrency, jobs: cfg.jobs, rounds: cfg.rounds })

async function main(): Promise<void> {
  const scratch = await createScratchDb(`aizk_bench_${process.pid}`)
  url = scratch.url
  const pool = new pg.Pool({ connectionString: url, max: cfg.inflight + 1 })
  pool.on('error', () => {})
  try {
    // Diagnostic only: what the live-count triggers cost (BENCH_NO_COUNT_TRIGGERS=1).
    if (flag('BENCH_NO_COUNT_TRIGGERS')) {
      await pool.query('ALTER TABLE pgqueuer DISABLE TRIGGER aizk_count_insert, DISABLE TRIGGER aizk_count_update, DISABLE TRIGGER aizk_count_delete')
      await pool.query('ALTER TABLE pgqueuer_log DISABLE TRIGGER aizk_throughput_insert')
    }
    let b: Drained | undefined
    for (const s of cfg.sections) {
      process.stderr.write(`bench: section ${s}\n`)
      if (s === 'a') await sectionA(pool)
      else if (s === 'b') b = await sectionB(pool)
      else if (s === 'c') await sectionC(pool)
      else if (s === 'd') await sectionD(pool, b)
      else if (s === 'e') await sectionE(pool)
      else if (s === 'f') await sectionF(pool, b)
      else if (s === 'g')
        rows.push(
          ...(await logParitySection(pool, {
            url,
            batch: cfg.batch,
            concurrency: cfg.concurrency,
            jobs: cfg.jobs,
            inflight: cfg.inflight,
            rounds: cfg.rounds,
          })),
        )
      else if (s === 'h') rows.push(await spreadSection(pool, { ...ab(), spread: num('BENCH_SPREAD', 20) }))
      else if (s === 'i') rows.push(await countTriggerSection(pool, ab()))
      else if (s === 'u') rows.push(await logPersistenceSection(pool, ab()))
      else if (s === 'j') {
        const concurrencies = words('BENCH_LOCAL_CONCURRENCY', '16 64').map(Number)
        rows.push(...(await localQueueSection(pool, { url, jobs: cfg.jobs, rounds: cfg.rounds, batch: cfg.batch, concurrencies })))
      } else if (s === 't')
        rows.push(
          ...(await tracingSection(pool, { url, batch: cfg.batch, concurrency: cfg.concurrency, jobs: cfg.jobs, inflight: cfg.inflight, rounds: cfg.rounds })),
        )
      else if (s === 'l') await sectionL(pool)
      else if (s === 'k') rows.push(...(await insertFloorSection({ seconds: cfg.floorSeconds, clients: cfg.floorClients })))
      else if (s === 'pgbouncer') rows.push(...(await pgbouncerSection(pool, scratch.name, url)))
      else if (s === 'graph') await (await import('./graph.js')).runGraphBench()
      else if (s === 'recall') rows.push(...(await (await import('./recall-bench.js')).runRecallBench()).map((r) => ({ section: 'recall', ...r })))
      // The module runs its passes when loaded (it is also `npm run bench:graph-maintenance`).
      else if (s === 'graph-maintenance') await import('./graph-maintenance.js')
    }
  } finally {
    await pool.end()
    await scratch.drop()
  }
  const { rows: v } = await new pg.Pool({ connectionString: cfg.server, max: 1 }).query('SHOW server_version')
  process.stdout.write(
    `\naizk queue benchmark (node ${process.version}, PostgreSQL ${v[0].server_version}, ${os.cpus().length} cpus, load ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')})\n\n`,
  )
  process.stdout.write('| | measurement | result | notes |\n|---|---|---|---|\n')
  for (const r of rows) process.stdout.write(`| ${r.section} | ${r.what} | ${r.value} | ${r.note ?? ''} |\n`)
}

import os from 'node:os'

await main()
process.exit(0)
