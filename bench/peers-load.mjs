// Two workloads the peer harness lacks, run against aizk and graphile-worker in one run
// (docs/benchmarks.md#jobs-that-touch-the-database-and-sustained-load):
//   drain-db   BENCH_JOBS (200,000) pre-enqueued jobs drained by one worker process whose handler
//              writes one row in its own transaction on the worker's pool (bench/load-child.mjs),
//              and the same drain with no-op handlers (noop) for comparison
//   sustained  producers enqueue at a fixed rate (one bulk call every BENCH_TICK_MS, 10) while one
//              worker drains; a rate is held when, over BENCH_HOLD_SECONDS (60), the p99 pickup
//              latency (enqueue call -> handler start) stays under BENCH_P99_MS (100), the queue depth in the
//              last third of the hold never exceeds max(100, 0.2 s of the rate), and the producer
//              kept to its schedule. Rates climb from BENCH_RATE_START (2,000) by x BENCH_RATE_STEP
//              (1.25) until one is not held; the highest held rate is reported.
// It uses the peer harness's library (BENCH_PEERS, default ../shared/bench-peers: adapters,
// scratch databases) and its installed peers ($PEERBENCH_DIR, from its setup.sh); aizk runs
// through bench/peers-adapter.mjs (its producer) and bench/load-child.mjs (its worker).
//   npm run build && node bench/peers-load.mjs
// Knobs (env): BENCH_LOAD ("drain-db sustained"), SYSTEMS ("aizk graphile-worker"),
// BENCH_DRAIN_MODES ("noop dbwrite"), BENCH_ROUNDS (1), BENCH_CONCURRENCY (16), BENCH_POOL (each
// system's handler pool; see load-child.mjs), BENCH_POOLS (aizk handler pool sizes to try in
// drain-db, e.g. "8 17 24"), BENCH_MAX_RATE (100,000). A before/after in one run: SYSTEMS="aizk aizk-before
// graphile-worker" with AIZK_BEFORE_DIR (a built checkout) and ADAPTER_AIZK_BEFORE (its peers-adapter.mjs).

import { fork } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const env = process.env
const peersDir = path.resolve(env.BENCH_PEERS ?? path.join(here, '..', '..', 'shared', 'bench-peers'))
env.ADAPTER_AIZK ??= path.join(here, 'peers-adapter.mjs')
const { loadAdapter, makeCtx, recreateDb, dropDb, settleDb, withClient, percentile, sleep } = await import(
  pathToFileURL(path.join(peersDir, 'lib', 'common.mjs')).href
)

const num = (name, d) => (env[name] ? Number(env[name]) : d)
const cfg = {
  workloads: (env.BENCH_LOAD ?? 'drain-db sustained').split(/\s+/).filter(Boolean),
  systems: (env.SYSTEMS ?? 'aizk graphile-worker').split(/\s+/).filter(Boolean),
  modes: (env.BENCH_DRAIN_MODES ?? 'noop dbwrite').split(/\s+/).filter(Boolean),
  pools: (env.BENCH_POOLS ?? '').split(/\s+/).filter(Boolean).map(Number),
  jobs: num('BENCH_JOBS', 200_000),
  rounds: num('BENCH_ROUNDS', 1),
  holdSeconds: num('BENCH_HOLD_SECONDS', 60),
  tickMs: num('BENCH_TICK_MS', 10),
  rateStart: num('BENCH_RATE_START', 2000),
  rateStep: num('BENCH_RATE_STEP', 1.25),
  maxRate: num('BENCH_MAX_RATE', 100_000),
  p99Ms: num('BENCH_P99_MS', 100),
}
const now = () => Number(process.hrtime.bigint()) / 1e6
const fmt = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—')

/** utime + stime of a process, ms (USER_HZ 100). */
function procCpuMs(pid) {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const a = f.slice(f.lastIndexOf(')') + 2).split(' ')
    return (Number(a[11]) + Number(a[12])) * 10
  } catch {
    return 0
  }
}
/** CPU ms of the database's client backends so far, by pid (autovacuum left out). */
async function backendsCpu(client, db) {
  const { rows } = await client.query("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' AND pid <> pg_backend_pid()", [
    db,
  ])
  return new Map(rows.map((r) => [r.pid, procCpuMs(r.pid)]))
}
const spent = (a, b) => [...b].reduce((s, [pid, v]) => s + v - (a.get(pid) ?? 0), 0)

function spawnChild(system, mode, url, extraEnv = {}) {
  const child = fork(path.join(here, 'load-child.mjs'), [system, mode, url], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...env, ...extraEnv } })
  const waiting = new Map()
  child.on('message', (m) => {
    const key = m.type === 'error' ? [...waiting.keys()][0] : m.type
    const w = waiting.get(key)
    waiting.delete(key)
    if (w) m.type === 'error' ? w.reject(new Error(m.message)) : w.resolve(m)
  })
  const waitFor = (type) => new Promise((resolve, reject) => waiting.set(type, { resolve, reject }))
  const request = (cmd, type) => {
    const p = waitFor(type)
    child.send({ cmd })
    return p
  }
  return waitFor('loaded').then(() => ({
    pid: child.pid,
    request,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r))
      await request('stop', 'stopped')
      await exited
    },
  }))
}

/** A fresh scratch database with the system's schema and the side table the dbwrite handler fills. */
async function prepare(system) {
  const adapter = await loadAdapter(system)
  const ctx = makeCtx(adapter, undefined)
  ctx.db = `${ctx.db}_load_${process.pid}`
  ctx.connectionString = ctx.connectionString.replace(/\/[^/]*$/, `/${ctx.db}`)
  await recreateDb(ctx.db)
  await adapter.install(ctx)
  await withClient(ctx.db, async (c) => {
    await c.query('CREATE TABLE bench_side (id bigserial PRIMARY KEY, job int NOT NULL, at timestamptz NOT NULL DEFAULT now())')
    await c.query('GRANT ALL ON bench_side, bench_side_id_seq TO PUBLIC')
  })
  return { adapter, ctx }
}

async function drain(system, mode, pool) {
  const { adapter, ctx } = await prepare(system)
  try {
    const prod = await adapter.producer(ctx)
    for (let b = 0; b < cfg.jobs; b += 1000) await prod.enqueueBulk(Array.from({ length: Math.min(1000, cfg.jobs - b) }, (_, k) => ({ i: b + k })))
    await prod.close()
    await settleDb(ctx.db)
    return await withClient(ctx.db, async (client) => {
      const w = await spawnChild(system, mode, ctx.connectionString, pool ? { BENCH_POOL: String(pool) } : {})
      const w0 = procCpuMs(w.pid)
      const b0 = await backendsCpu(client, ctx.db)
      const { tStart } = await w.request('start', 'started')
      let left = cfg.jobs
      while (left > 0) {
        left = await adapter.remaining(ctx, client)
        if (left > 0) await sleep(left > 2000 ? 50 : 5)
      }
      const seconds = (now() - tStart) / 1000
      const worker = procCpuMs(w.pid) - w0
      const server = spent(b0, await backendsCpu(client, ctx.db))
      const own = worker + server
      await w.stop()
      const side = mode === 'dbwrite' ? (await client.query('SELECT count(*)::int AS n FROM bench_side')).rows[0].n : undefined
      return { rate: cfg.jobs / seconds, cpuPer1k: (own / cfg.jobs) * 1000, workerPer1k: (worker / cfg.jobs) * 1000, side }
    })
  } finally {
    await dropDb(ctx.db)
  }
}

/** One hold at `rate` jobs/s: producers on a fixed schedule, one worker, latency and depth watched. */
async function hold(system, rate) {
  const { adapter, ctx } = await prepare(system)
  try {
    const prod = await adapter.producer(ctx)
    return await withClient(ctx.db, async (client) => {
      const w = await spawnChild(system, 'noop', ctx.connectionString)
      await w.request('start', 'started')
      await sleep(1000)
      await w.request('report', 'report') // nothing before the hold counts
      const t0 = now()
      const end = t0 + cfg.holdSeconds * 1000
      let sent = 0
      let inFlight = 0
      let maxInFlight = 0
      let errors = 0
      const depths = []
      let nextDepth = t0
      while (now() < end) {
        const due = Math.floor(((now() - t0) / 1000) * rate) - sent
        if (due > 0 && inFlight < 8) {
          const batch = Array.from({ length: due }, (_, k) => ({ i: sent + k, t0: now() }))
          sent += due
          inFlight++
          maxInFlight = Math.max(maxInFlight, inFlight)
          prod
            .enqueueBulk(batch)
            .catch(() => errors++)
            .finally(() => inFlight--)
        }
        if (now() >= nextDepth) {
          nextDepth += 250
          depths.push({ at: now() - t0, n: await adapter.remaining(ctx, client) })
        }
        await sleep(cfg.tickMs)
      }
      const behind = Math.floor(cfg.holdSeconds * rate) - sent
      while (inFlight > 0) await sleep(5)
      const drainBy = now() + 10_000
      while ((await adapter.remaining(ctx, client)) > 0 && now() < drainBy) await sleep(20)
      const { latencies, handled } = await w.request('report', 'report')
      await w.stop()
      await prod.close()
      const sorted = latencies.sort((a, b) => a - b)
      const lastThird = depths.filter((d) => d.at >= (cfg.holdSeconds * 1000 * 2) / 3)
      const maxDepth = Math.max(0, ...lastThird.map((d) => d.n))
      const depthBound = Math.max(100, rate * 0.2)
      const p99 = percentile(sorted, 99)
      const held = errors === 0 && handled >= sent && p99 < cfg.p99Ms && maxDepth <= depthBound && behind <= rate * 0.05
      return { rate, held, p50: percentile(sorted, 50), p99, maxDepth, depthBound, behind, handled, sent, errors }
    })
  } finally {
    await dropDb(ctx.db)
  }
}

async function sustained(system) {
  let best
  const steps = []
  for (let rate = cfg.rateStart; rate <= cfg.maxRate; rate = Math.round(rate * cfg.rateStep)) {
    const r = await hold(system, rate)
    steps.push(r)
    console.log(
      `  ${system} ${fmt(rate)}/s: ${r.held ? 'held' : 'not held'}; p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, depth (last third) max ${fmt(r.maxDepth)} (bound ${fmt(r.depthBound)}), producer behind ${fmt(r.behind)}, handled ${fmt(r.handled)} of ${fmt(r.sent)}`,
    )
    if (!r.held) break
    best = r
  }
  return { best, steps }
}

const lines = []
const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
console.log(`peers-load: ${cfg.workloads.join(', ')}; systems ${cfg.systems.join(', ')}; concurrency ${env.BENCH_CONCURRENCY ?? 16}; load ${load}`)
if (cfg.workloads.includes('drain-db')) {
  const runs = []
  for (const mode of cfg.modes) {
    for (let r = 0; r < cfg.rounds; r++) {
      for (const system of cfg.systems) {
        const pools = system.startsWith('aizk') && mode === 'dbwrite' && cfg.pools.length ? cfg.pools : [undefined]
        for (const pool of pools) {
          const d = await drain(system, mode, pool)
          const label = `${system}${pool ? ` (handler pool ${pool})` : ''}`
          console.log(
            `  drain ${mode} ${label}, round ${r + 1}: ${fmt(d.rate)} jobs/s, own CPU ${d.cpuPer1k.toFixed(1)} ms / 1,000 jobs (worker process ${d.workerPer1k.toFixed(1)}, backends ${(d.cpuPer1k - d.workerPer1k).toFixed(1)})${d.side === undefined ? '' : `, side rows ${fmt(d.side)}`}`,
          )
          runs.push({ mode, label, system, ...d })
        }
      }
    }
  }
  const med = (xs) => {
    const s = [...xs].sort((a, b) => a - b)
    const m = Math.floor(s.length / 2)
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
  }
  for (const mode of cfg.modes) {
    const labels = [...new Set(runs.filter((x) => x.mode === mode).map((x) => x.label))]
    const peer = runs.filter((x) => x.mode === mode && !x.system.startsWith('aizk'))
    const peerRate = med(peer.map((x) => x.rate))
    const peerCpu = med(peer.map((x) => x.cpuPer1k))
    for (const label of labels) {
      const mine = runs.filter((x) => x.mode === mode && x.label === label)
      const rate = med(mine.map((x) => x.rate))
      const cpu = med(mine.map((x) => x.cpuPer1k))
      lines.push(
        `| drain ${fmt(cfg.jobs)}, ${mode} | ${label} | ${fmt(rate)} jobs/s | ${(rate / peerRate).toFixed(2)} | ${cpu.toFixed(1)} | ${(cpu / peerCpu).toFixed(2)} |`,
      )
    }
  }
}
if (cfg.workloads.includes('sustained')) {
  const found = {}
  for (const system of cfg.systems) found[system] = await sustained(system)
  const peer = cfg.systems.find((s) => !s.startsWith('aizk'))
  for (const system of cfg.systems) {
    const b = found[system].best
    const ratio = b && peer && found[peer].best ? (b.rate / found[peer].best.rate).toFixed(2) : '—'
    lines.push(
      `| sustained, held ${cfg.holdSeconds} s, p99 < ${cfg.p99Ms} ms | ${system} | ${b ? `${fmt(b.rate)} jobs/s (p99 ${b.p99.toFixed(1)} ms)` : 'none held'} | ${ratio} | | |`,
    )
  }
}
console.log('')
console.log('| workload | system | rate | ÷ peer | own CPU ms / 1,000 jobs | ÷ peer |')
console.log('|---|---|---:|---:|---:|---:|')
for (const l of lines) console.log(l)
