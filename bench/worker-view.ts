/**
 * What the live view costs (issue 16): `aizk worker` processes with the view on a real
 * pseudo-terminal (script(1)) against the same worker writing JSON lines to a pipe.
 *   idle:  all variants run at once for BENCH_VIEW_IDLE_SECONDS (60) after a warm-up
 *          (BENCH_VIEW_WARM_SECONDS, 10); CPU from /proc/<pid>/stat over that span, RSS sampled
 *          every second (mean and max)
 *   drain: BENCH_VIEW_DRAIN_JOBS (20,000) pre-enqueued no-op jobs drained by one variant at a
 *          time, twice, interleaved; jobs/s from the first pick to an empty queue
 * BENCH_BEFORE_DIR (another built checkout, e.g. the previous commit) adds its worker with the
 * same two outputs to the same run. Workers run without the scheduler, so every variant does the
 * same work; their jobs are test/fixtures/test-jobs.mjs of their own checkout.
 * Knobs: BENCH_VIEW_IDLE_SECONDS, BENCH_VIEW_WARM_SECONDS, BENCH_VIEW_DRAIN_JOBS, BENCH_VIEW_PARTS
 * ("idle drain"), BENCH_VIEW_OUTPUTS ("view json"), BENCH_VIEW_NODE_ARGS (extra node flags for the
 * workers, e.g. --cpu-prof), BENCH_BEFORE_DIR; docs/benchmarks.md#knobs.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { num, text, words } from './knobs.js'
import { childPid, cpuSeconds, median, rssMb } from './process-stats.js'
import { createScratchDb } from './scratch-db.js'

const here = path.dirname(path.dirname(fileURLToPath(import.meta.url)))
const idleSeconds = num('BENCH_VIEW_IDLE_SECONDS', 60)
const warmSeconds = num('BENCH_VIEW_WARM_SECONDS', 10)
const drainJobs = num('BENCH_VIEW_DRAIN_JOBS', 20_000)
const checkouts: [string, string][] = [['after', here]]
const beforeDir = text('BENCH_BEFORE_DIR')
if (beforeDir) checkouts.unshift(['before', path.resolve(beforeDir)])
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface Variant {
  label: string
  dir: string
  output: 'view' | 'json'
}
const parts = words('BENCH_VIEW_PARTS', 'idle drain')
const outputs = words('BENCH_VIEW_OUTPUTS', 'view json') as Variant['output'][]
const nodeArgs = words('BENCH_VIEW_NODE_ARGS', '')
const variants: Variant[] = checkouts.flatMap(([label, dir]) => outputs.map((output) => ({ label, dir, output })))
const name = (v: Variant) => `${v.label} ${v.output === 'view' ? 'live view (pty)' : 'JSON lines'}`

interface RunningWorker {
  pid: number
  child: ChildProcess
  stop(): Promise<void>
}

async function startWorker(v: Variant, url: string): Promise<RunningWorker> {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, val] of Object.entries(process.env)) if (!k.startsWith('AIZK_') && k !== 'CI' && k !== 'NODE_OPTIONS') env[k] = val
  Object.assign(env, {
    AIZK_DATABASE_URL: url,
    AIZK_WORKER_NO_SCHEDULER: 'true',
    AIZK_WORKER_JOB_MODULES: path.join(v.dir, 'test', 'fixtures', 'test-jobs.mjs'),
    AIZK_WORKER_OUTPUT: v.output,
  })
  const bin = path.join(v.dir, 'bin', 'run.js')
  let child: ChildProcess
  let pid: number | undefined
  if (v.output === 'view') {
    child = spawn('script', ['-qfec', `stty cols 120 rows 50; exec ${process.execPath} ${nodeArgs.join(' ')} ${bin} worker`, '/dev/null'], {
      cwd: v.dir,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    for (let i = 0; i < 100 && !pid; i++) {
      await sleep(50)
      pid = childPid(child.pid ?? -1, bin)
    }
  } else {
    child = spawn(process.execPath, [...nodeArgs, bin, 'worker'], { cwd: v.dir, env, stdio: ['ignore', 'pipe', 'pipe'] })
    pid = child.pid
  }
  if (!pid) throw new Error(`${name(v)}: no worker process`)
  child.stdout?.resume()
  let stderr = ''
  child.stderr?.on('data', (d) => {
    stderr += d
  })
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()))
  const workerPid = pid
  return {
    pid: workerPid,
    child,
    async stop() {
      try {
        process.kill(workerPid, 'SIGTERM')
      } catch {}
      await exited
      if (/error:/.test(stderr)) throw new Error(`${name(v)}: ${stderr}`)
    },
  }
}

async function idle(url: string): Promise<Map<string, { cpu: number; rssMean: number; rssMax: number }>> {
  const workers = await Promise.all(variants.map((v) => startWorker(v, url)))
  await sleep(warmSeconds * 1000)
  const cpu0 = workers.map((w) => cpuSeconds(w.pid))
  const t0 = performance.now()
  const rss: number[][] = workers.map(() => [])
  for (let s = 0; s < idleSeconds; s++) {
    await sleep(1000)
    for (const [i, w] of workers.entries()) rss[i].push(rssMb(w.pid))
  }
  const elapsed = (performance.now() - t0) / 1000
  const out = new Map<string, { cpu: number; rssMean: number; rssMax: number }>()
  workers.forEach((w, i) => {
    const used = cpuSeconds(w.pid) - cpu0[i]
    out.set(name(variants[i]), { cpu: (100 * used) / elapsed, rssMean: rss[i].reduce((a, b) => a + b, 0) / rss[i].length, rssMax: Math.max(...rss[i]) })
  })
  await Promise.all(workers.map((w) => w.stop()))
  return out
}

async function drainOnce(v: Variant, url: string, pool: pg.Pool): Promise<number> {
  await pool.query('TRUNCATE pgqueuer, pgqueuer_log')
  await pool.query(
    `INSERT INTO pgqueuer (priority, entrypoint, payload, status) SELECT 0, 'test_noop', convert_to('{}', 'UTF8'), 'queued' FROM generate_series(1, $1)`,
    [drainJobs],
  )
  await pool.query('VACUUM ANALYZE pgqueuer')
  const left = async () => Number((await pool.query("select count(*)::int as n from pgqueuer where entrypoint = 'test_noop'")).rows[0].n)
  const worker = await startWorker(v, url)
  let first = 0
  for (;;) {
    const n = await left()
    const now = performance.now()
    if (!first && n < drainJobs) first = now
    if (n === 0) {
      await worker.stop()
      return (drainJobs * 1000) / (now - first)
    }
    await sleep(25)
  }
}

const db = await createScratchDb(`aizk_bench_view_${process.pid}`)
const pool = new pg.Pool({ connectionString: db.url, max: 2 })
try {
  const idleResult = parts.includes('idle') ? await idle(db.url) : new Map()
  const drains = new Map<string, number[]>()
  for (let round = 0; round < (parts.includes('drain') ? 2 : 0); round++) {
    for (const v of variants) drains.set(name(v), [...(drains.get(name(v)) ?? []), await drainOnce(v, db.url, pool)])
  }
  console.log(
    `\nidle worker for ${idleSeconds} s (after ${warmSeconds} s warm-up), all variants at once; drain of ${drainJobs.toLocaleString('en-US')} no-op jobs, one variant at a time, 2 rounds\n`,
  )
  console.log('| variant | idle CPU (% of a core) | idle RSS mean / max | drain jobs/s (rounds) | drain vs JSON lines |')
  console.log('|---|---|---|---|---|')
  for (const v of variants) {
    const i = idleResult.get(name(v))
    const d = drains.get(name(v)) ?? []
    const json = median(drains.get(name({ ...v, output: 'json' })) ?? [1])
    const ratio = `${((100 * median(d)) / json).toFixed(0)}%`
    console.log(
      `| ${name(v)} | ${i?.cpu.toFixed(2)}% | ${i?.rssMean.toFixed(0)} / ${i?.rssMax.toFixed(0)} MB | ${d.map((x) => Math.round(x).toLocaleString('en-US')).join(', ')} | ${ratio} |`,
    )
  }
} finally {
  await pool.end()
  await db.drop()
}
