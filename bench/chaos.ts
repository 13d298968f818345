/**
 * `npm run chaos` (needs `npm run build`: the workers run bin/run.js over dist/): a bounded,
 * self-stopping chaos run of the queue, not a test (docs/benchmarks.md#chaos-run).
 *   - its own embedded PostgreSQL on a free port in a temp folder (never the shared server);
 *   - CHAOS_JOBS jobs of bench/chaos-jobs.mjs, each recording its run in chaos_runs, a share
 *     (CHAOS_LIMITED_SHARE) of them of an entrypoint limited to 2 at once;
 *   - CHAOS_WORKERS real `aizk worker` processes; every CHAOS_KILL_EVERY_SECONDS or so one chosen
 *     at random is SIGKILLed and started again, CHAOS_KILLS times; CHAOS_RESTARTS times, evenly
 *     among the kills, the server is stopped (fast) and started again after CHAOS_DOWN_SECONDS;
 *   - the limited entrypoint's picked rows counted every 20 ms;
 *   - until the queue holds nothing queued or picked, or CHAOS_TIMEOUT_SECONDS have passed.
 * Then a table: lost, completed twice, run again, held, the most picked at once against the limit.
 * Exit 1 when a job was lost, completed twice or succeeded without running, or the limit was
 * exceeded; exit 2 when the run did not finish (timeout, or fewer kills or restarts than asked);
 * else 0. Removes its server, folder and processes on every exit (CHAOS_KEEP=1 keeps the folder).
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { ensureEmbeddedServer, stopEmbeddedServer } from '../src/db/embedded.js'
import { migrate } from '../src/db/migrate.js'
import { enqueueMany } from '../src/queue/enqueue.js'
import { repoRoot } from '../test/support/cli.js'
import { freePort, spawnWorker, type WorkerProcess } from '../test/support/worker-process.js'
import { evidence, type Tally, tally } from './chaos-tally.js'
import { flag, num } from './knobs.js'

/** A knob's value, refused (exit 2) unless a number of at least `min`. */
function atLeast(name: string, value: number, min: number): number {
  if (!Number.isFinite(value) || value < min) {
    process.stderr.write(`chaos: ${name}=${process.env[name]} is not a number >= ${min}; unset it for the default\n`)
    process.exit(2)
  }
  return value
}

const JOBS = Math.floor(atLeast('CHAOS_JOBS', num('CHAOS_JOBS', 20_000), 1))
const KILLS = Math.floor(atLeast('CHAOS_KILLS', num('CHAOS_KILLS', 30), 0))
const RESTARTS = Math.floor(atLeast('CHAOS_RESTARTS', num('CHAOS_RESTARTS', 2), 0))
const WORKERS = Math.floor(atLeast('CHAOS_WORKERS', num('CHAOS_WORKERS', 3), 1))
const CONCURRENCY = Math.floor(atLeast('CHAOS_CONCURRENCY', num('CHAOS_CONCURRENCY', 16), 1))
const JOB_MS = Math.floor(atLeast('CHAOS_JOB_MS', num('CHAOS_JOB_MS', 250), 0))
const LIMITED_SHARE = Math.min(1, atLeast('CHAOS_LIMITED_SHARE', num('CHAOS_LIMITED_SHARE', 0.05), 0))
const KILL_EVERY_MS = atLeast('CHAOS_KILL_EVERY_SECONDS', num('CHAOS_KILL_EVERY_SECONDS', 3), 0.1) * 1000
const DOWN_MS = atLeast('CHAOS_DOWN_SECONDS', num('CHAOS_DOWN_SECONDS', 3), 0) * 1000
const TIMEOUT_MS = atLeast('CHAOS_TIMEOUT_SECONDS', num('CHAOS_TIMEOUT_SECONDS', 900), 1) * 1000
const KEEP = flag('CHAOS_KEEP')

const LIMITED = 'chaos_limited'
const LIMIT = 2
const SAMPLE_MS = 20
const JOB_MODULE = path.join(repoRoot, 'bench', 'chaos-jobs.mjs')

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const started = performance.now()
const loadAtStart = os.loadavg()[0]
const seconds = (from = started) => (performance.now() - from) / 1000
const say = (line: string) => process.stderr.write(`chaos ${seconds().toFixed(1).padStart(6)} s: ${line}\n`)

let dataDir: string | undefined
let db: pg.Pool | undefined
/** No more kills or restarts. */
let chaosOver = false
/** The run stops its workers: none is started again. */
let stopping = false
/** A server restart in progress: the cleanup waits for it, so no server starts after the cleanup stopped it. */
let serverChange: Promise<void> = Promise.resolve()
const everyWorker: WorkerProcess[] = []

// --- the server -----------------------------------------------------------------------------

async function startServer(port: number): Promise<string> {
  return (await ensureEmbeddedServer({ dataDir: dataDir!, port, env: process.env })).url
}

function pool(url: string): pg.Pool {
  const p = new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 2000, application_name: 'aizk-chaos' })
  p.on('error', () => {})
  return p
}

async function install(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await migrate(client, { appRole: 'aizk_app' })
    await client.query(`
      CREATE TABLE chaos_runs (seq bigserial PRIMARY KEY, job_id bigint NOT NULL, entrypoint text NOT NULL, attempts int, pid int, at timestamptz DEFAULT clock_timestamp());
      CREATE INDEX ON chaos_runs (job_id);
      CREATE TABLE chaos_enqueued (id bigint PRIMARY KEY, entrypoint text NOT NULL);`)
  } finally {
    await client.end()
  }
}

/** Limited jobs spread evenly through the enqueue order, so they run through the whole run. */
async function enqueueAll(db: pg.Pool): Promise<number> {
  const limited = Math.round(JOBS * LIMITED_SHARE)
  let n = 0
  for (let from = 0; from < JOBS; from += 1000) {
    const items = []
    for (let i = from; i < Math.min(JOBS, from + 1000); i++) {
      const isLimited = Math.floor(((i + 1) * limited) / JOBS) > Math.floor((i * limited) / JOBS)
      items.push({ entrypoint: isLimited ? LIMITED : 'chaos_record', payload: { ms: JOB_MS } })
    }
    const client = await db.connect()
    try {
      await client.query('BEGIN')
      const ids = (await enqueueMany(client, items)) as string[]
      await client.query('INSERT INTO chaos_enqueued SELECT * FROM unnest($1::bigint[], $2::text[])', [ids, items.map((j) => j.entrypoint)])
      await client.query('COMMIT')
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {})
      throw err
    } finally {
      client.release()
    }
    n += items.length
  }
  return n
}

// --- the limit sampler ----------------------------------------------------------------------

interface Sampling {
  samples: number
  failed: number
  max: number
  over: { atSeconds: number; rows: { id: string; queue_manager_id: string }[] }[]
}

/** The limited entrypoint's picked rows every SAMPLE_MS, until `over()`. */
async function sampleLimit(db: pg.Pool, s: Sampling, over: () => boolean): Promise<void> {
  while (!over()) {
    const t = performance.now()
    try {
      const { rows } = await db.query<{ id: string; queue_manager_id: string }>(
        "SELECT id::text, queue_manager_id::text FROM pgqueuer WHERE entrypoint = $1 AND status = 'picked'",
        [LIMITED],
      )
      s.samples++
      s.max = Math.max(s.max, rows.length)
      if (rows.length > LIMIT && s.over.length < 20) s.over.push({ atSeconds: seconds(), rows })
    } catch {
      s.failed++
    }
    await sleep(Math.max(0, SAMPLE_MS - (performance.now() - t)))
  }
}

// --- the workers ----------------------------------------------------------------------------

interface Slot {
  worker: WorkerProcess
  /** Set before the run kills it, so its exit is not counted as a crash. */
  expected: boolean
}

const crashes: string[] = []

function workerEnv(url: string): Record<string, string> {
  return {
    AIZK_DATABASE_URL: url,
    AIZK_WORKER_JOB_MODULES: JOB_MODULE,
    AIZK_WORKER_ENTRYPOINTS: `chaos_record,${LIMITED}`,
    AIZK_WORKER_NO_SCHEDULER: 'true',
    AIZK_WORKER_OUTPUT: 'json',
    AIZK_WORKER_LOG_JOBS: 'false',
    AIZK_QUEUE_BATCH_SIZE: String(CONCURRENCY),
    AIZK_QUEUE_CONCURRENT_TASKS: String(CONCURRENCY),
    AIZK_POLL_INTERVAL_SECONDS: '0.5',
    AIZK_HEARTBEAT_INTERVAL_SECONDS: '1',
    AIZK_HEARTBEAT_TIMEOUT_SECONDS: '5',
    AIZK_RETRY_BASE_SECONDS: '0.5',
    AIZK_RETRY_MAX_SECONDS: '5',
  }
}

function startWorker(url: string, slots: Slot[], i: number): void {
  const slot: Slot = { worker: spawnWorker(workerEnv(url)), expected: false }
  slots[i] = slot
  everyWorker.push(slot.worker)
  void slot.worker.exited.then(({ code, signal }) => {
    if (slot.expected || stopping) return
    const tail = slot.worker.stderr().trim().split('\n').slice(-3).join(' | ')
    crashes.push(`worker ${i} (pid ${slot.worker.child.pid}) exited by itself at ${seconds().toFixed(1)} s: code ${code}, signal ${signal}; stderr: ${tail}`)
    say(crashes[crashes.length - 1])
    if (!stopping) startWorker(url, slots, i)
  })
}

/** Each gap is drawn between half and one and a half times the mean. */
const gap = () => KILL_EVERY_MS * (0.5 + Math.random())

interface ChaosDone {
  kills: number
  restarts: number
}

/** The kills, with the restarts spread evenly among them (after kill 10 and 20 of 30). */
function plan(): ('kill' | 'restart')[] {
  const steps: ('kill' | 'restart')[] = []
  let restarts = 0
  for (let k = 1; k <= KILLS; k++) {
    steps.push('kill')
    while (restarts < RESTARTS && Math.ceil((KILLS * (restarts + 1)) / (RESTARTS + 1)) === k) {
      steps.push('restart')
      restarts++
    }
  }
  while (restarts++ < RESTARTS) steps.push('restart')
  return steps
}

/** One step after another, a gap before each, until the plan is done or `chaosOver`. */
async function chaos(url: string, port: number, slots: Slot[], remaining: () => number, done: ChaosDone): Promise<void> {
  for (const step of plan()) {
    const at = performance.now() + gap()
    while (!chaosOver && performance.now() < at) await sleep(50)
    if (chaosOver) return
    if (step === 'kill') {
      const i = Math.floor(Math.random() * slots.length)
      const slot = slots[i]
      slot.expected = true
      await slot.worker.kill('SIGKILL')
      done.kills++
      say(`kill ${done.kills}/${KILLS}: worker ${i} (pid ${slot.worker.child.pid}); ${remaining()} jobs queued or picked`)
      startWorker(url, slots, i)
    } else {
      say(`server restart ${done.restarts + 1}/${RESTARTS}: stopping; ${remaining()} jobs queued or picked`)
      serverChange = (async () => {
        await stopEmbeddedServer(dataDir!, process.env)
        await sleep(DOWN_MS)
        await startServer(port)
      })()
      await serverChange
      done.restarts++
      say(`server restart ${done.restarts}/${RESTARTS}: up again`)
    }
  }
}

// --- the run --------------------------------------------------------------------------------

async function main(): Promise<number> {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'aizk-chaos-'))
  await fs.chmod(dataDir, 0o755)
  const port = await freePort()
  const url = await startServer(port)
  say(`embedded PostgreSQL in ${dataDir} on port ${port}`)
  await install(url)
  db = pool(url)
  const enqueueStart = performance.now()
  const enqueued = await enqueueAll(db)
  const enqueueSeconds = seconds(enqueueStart)
  say(`${enqueued} jobs enqueued (${Math.round(JOBS * LIMITED_SHARE)} of ${LIMITED}, limit ${LIMIT})`)

  let left = enqueued
  const sampling: Sampling = { samples: 0, failed: 0, max: 0, over: [] }
  let samplingOver = false
  const sampler = sampleLimit(db, sampling, () => samplingOver)

  const slots: Slot[] = []
  for (let i = 0; i < WORKERS; i++) startWorker(url, slots, i)
  await Promise.all(slots.map((s) => s.worker.waitFor((e) => e.event === 'worker:started', 'the worker starting')))
  const drainStart = performance.now()
  say(`${WORKERS} workers started`)

  const done: ChaosDone = { kills: 0, restarts: 0 }
  const chaosRun = chaos(url, port, slots, () => left, done)
  const deadline = drainStart + TIMEOUT_MS
  let timedOut = false
  for (;;) {
    try {
      const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pgqueuer WHERE status IN ('queued', 'picked')")
      left = rows[0].n
    } catch {
      // The server is restarting: ask again.
    }
    // Drained: what of the chaos is still to come would have nothing left to hit.
    if (left === 0) break
    if (performance.now() > deadline) {
      timedOut = true
      break
    }
    await sleep(500)
  }
  const drainSeconds = seconds(drainStart)
  chaosOver = true
  await chaosRun
  say(timedOut ? `gave up after ${(TIMEOUT_MS / 1000).toFixed(0)} s: ${left} jobs still queued or picked` : `queue empty after ${drainSeconds.toFixed(1)} s`)

  // The drain on SIGTERM writes whatever outcomes are still buffered.
  stopping = true
  for (const s of slots) s.expected = true
  const exitCodes = await Promise.all(slots.map((s) => s.worker.stop()))
  samplingOver = true
  await sampler

  const t = await tally(db)
  const workerRows = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM aizk_worker')).rows[0].n
  const workerErrors = everyWorker.reduce((n, w) => n + w.events.filter((e) => e.event === 'worker:error').length, 0)
  const dbLost = everyWorker.reduce((n, w) => n + w.events.filter((e) => e.event === 'db:lost').length, 0)
  const limitExceeded = sampling.max > LIMIT
  const broken = t.lost.length > 0 || t.completedTwice.length > 0 || t.succeededUnrun.length > 0 || limitExceeded
  const incomplete = timedOut || done.kills < KILLS || done.restarts < RESTARTS

  printTable(t, {
    enqueueSeconds,
    drainSeconds,
    sampling,
    done,
    timedOut,
    workerStarts: everyWorker.length,
    exitCodes,
    workerErrors,
    dbLost,
    workerRows,
  })
  for (const [what, ids] of [
    ['LOST (no successful log row, no row left)', t.lost],
    ['COMPLETED TWICE (2+ successful log rows)', t.completedTwice],
    ['SUCCEEDED WITHOUT A RECORDED RUN', t.succeededUnrun],
  ] as const) {
    if (ids.length === 0) continue
    console.log(`\n${what}:`)
    for (const line of await evidence(db, ids)) console.log(line)
  }
  if (limitExceeded) {
    console.log(`\nLIMIT EXCEEDED: ${LIMITED} had up to ${sampling.max} picked rows at once (limit ${LIMIT}); samples over it:`)
    for (const o of sampling.over) console.log(`  at ${o.atSeconds.toFixed(2)} s: ${JSON.stringify(o.rows)}`)
  }
  for (const c of crashes) console.log(`\nUNEXPECTED EXIT: ${c}`)
  if (broken) console.log('\nchaos: FAILED (see above)')
  else if (timedOut) console.log('\nchaos: INCOMPLETE (timed out): no rule broken in what ran')
  else if (incomplete)
    console.log('\nchaos: INCOMPLETE (the queue drained before the chaos was done: raise CHAOS_JOBS or CHAOS_JOB_MS): no rule broken in what ran')
  else console.log('\nchaos: passed: 0 lost, 0 completed twice, the limit held')
  return broken ? 1 : incomplete ? 2 : 0
}

interface RunFigures {
  enqueueSeconds: number
  drainSeconds: number
  sampling: Sampling
  done: ChaosDone
  timedOut: boolean
  workerStarts: number
  exitCodes: (number | null)[]
  workerErrors: number
  dbLost: number
  workerRows: number
}

function printTable(t: Tally, r: RunFigures): void {
  const fmt = (n: number) => n.toLocaleString('en-US')
  const rows: [string, string][] = [
    ['jobs enqueued', `${fmt(t.enqueued)} (${fmt(Math.round(JOBS * LIMITED_SHARE))} of ${LIMITED}), ${JOB_MS} ms each`],
    ['exactly one successful log row', fmt(t.exactlyOnce)],
    ['lost (no successful log row, no row left)', fmt(t.lost.length)],
    ['completed twice (2+ successful log rows)', fmt(t.completedTwice.length)],
    ['succeeded with no run recorded', fmt(t.succeededUnrun.length)],
    ['held (failed, row kept)', fmt(t.held)],
    ['still queued or picked', fmt(t.unfinished)],
    ['runs recorded', fmt(t.runs)],
    ['jobs run more than once', fmt(t.ranAgain)],
    ["extra runs (beyond each job's first)", fmt(t.extraRuns)],
    ['failed attempts logged (exception rows)', fmt(t.exceptionRows)],
    [
      `most ${LIMITED} picked at once`,
      `${r.sampling.max} (limit ${LIMIT}), ${fmt(r.sampling.samples)} samples every ${SAMPLE_MS} ms, ${fmt(r.sampling.failed)} failed (server down)`,
    ],
    ['worker SIGKILLs', `${r.done.kills} of ${KILLS}`],
    ['server restarts', `${r.done.restarts} of ${RESTARTS}, ${DOWN_MS / 1000} s down each`],
    ['worker processes started', `${r.workerStarts} (${WORKERS} at once, concurrency ${CONCURRENCY}); ${crashes.length} exited by themselves`],
    ['exit codes of the last workers (SIGTERM)', r.exitCodes.map((c) => c ?? 'killed by a signal').join(', ')],
    ['worker:error lines / db:lost lines', `${fmt(r.workerErrors)} / ${fmt(r.dbLost)}`],
    ['aizk_worker rows left after the last SIGTERM', fmt(r.workerRows)],
    ['enqueue', `${r.enqueueSeconds.toFixed(1)} s`],
    ['drain under chaos', `${r.drainSeconds.toFixed(1)} s${r.timedOut ? ` (gave up at CHAOS_TIMEOUT_SECONDS=${TIMEOUT_MS / 1000})` : ''}`],
    ['elapsed', `${seconds().toFixed(1)} s`],
    ['load average (1 min) at start / end', `${loadAtStart.toFixed(2)} / ${os.loadavg()[0].toFixed(2)} on ${os.availableParallelism()} cores`],
  ]
  console.log(`\n| figure | value |\n|---|---|`)
  for (const [k, v] of rows) console.log(`| ${k} | ${v} |`)
}

// --- cleanup, on every way out ----------------------------------------------------------------

let cleaning: Promise<void> | undefined
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    chaosOver = true
    stopping = true
    for (const w of everyWorker) w.child.kill('SIGKILL')
    await Promise.all(everyWorker.map((w) => w.exited))
    await db?.end().catch(() => {})
    if (!dataDir) return
    await serverChange.catch(() => {})
    await stopEmbeddedServer(dataDir, process.env).catch((err) => say(`could not stop the server: ${(err as Error).message}`))
    if (KEEP) say(`kept ${dataDir} (CHAOS_KEEP)`)
    else await fs.rm(dataDir, { recursive: true, force: true })
  })()
  return cleaning
}

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    say(`${signal}: cleaning up`)
    void cleanup().finally(() => process.exit(code))
  })
}

main()
  .catch((err) => {
    say(`failed: ${(err as Error).stack ?? err}`)
    return 1
  })
  .then(async (code) => {
    await cleanup()
    process.exit(code)
  })
