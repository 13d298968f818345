/**
 * The one way tests spawn a real `aizk worker` (bin/run.js over dist/): its stdout is read as
 * JSON lines (lines that do not parse are kept in `badLines`, which must stay empty), and tests
 * wait on its events, never on sleeps. `kill()` and `stop()` always leave nothing running.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import net from 'node:net'
import path from 'node:path'
import { binPath, cleanEnv, repoRoot } from './cli.js'

export type WorkerEvent = { ts: string; event: string; [field: string]: unknown }

export interface WorkerProcess {
  child: ChildProcess
  events: WorkerEvent[]
  /** Lines of stdout that were not JSON objects (must stay empty). */
  badLines: string[]
  rawStdout(): string
  stderr(): string
  /** Resolves with the first event (seen before or after the call) that matches. */
  waitFor(match: (e: WorkerEvent) => boolean, what: string, guardMs?: number): Promise<WorkerEvent>
  /** Resolves once `count` events match. */
  waitForCount(match: (e: WorkerEvent) => boolean, count: number, what: string, guardMs?: number): Promise<void>
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Send `signal` (default SIGKILL) if still running; resolves once it has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>
  /** SIGTERM (the drain), SIGKILL after 30 s; resolves with the exit code. */
  stop(): Promise<number | null>
}

/** Job modules the e2e workers load: the fixture jobs (test_noop, test_sleep, test_hang, ...). */
export const FIXTURE_JOBS = './test/fixtures/test-jobs.mjs'
/** The same module by absolute path, for commands run from another folder. */
export const TEST_JOBS = path.join(repoRoot, 'test', 'fixtures', 'test-jobs.mjs')

export type SpawnedWorker = WorkerProcess

/** Timings small enough for worker tests to run in seconds. */
export const FAST_ENV = {
  AIZK_HEARTBEAT_INTERVAL_SECONDS: '0.2',
  AIZK_HEARTBEAT_TIMEOUT_SECONDS: '1.5',
  AIZK_POLL_INTERVAL_SECONDS: '0.2',
  AIZK_RETRY_BASE_SECONDS: '0.05',
  AIZK_RETRY_MAX_SECONDS: '0.2',
}

/** The tables the fixture jobs write to. */
export const FIXTURE_TABLES = `
  CREATE TABLE IF NOT EXISTS test_runs (seq bigserial PRIMARY KEY, job_id bigint, entrypoint text, attempts int, pid int, note text, at timestamptz DEFAULT clock_timestamp());
  CREATE TABLE IF NOT EXISTS test_counter (name text PRIMARY KEY, running int NOT NULL DEFAULT 0, max_running int NOT NULL DEFAULT 0, done int NOT NULL DEFAULT 0);
`

export function workerEnv(databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    AIZK_DATABASE_URL: databaseUrl,
    AIZK_WORKER_JOB_MODULES: FIXTURE_JOBS,
    AIZK_WORKER_NO_SCHEDULER: 'true',
    AIZK_POLL_INTERVAL_SECONDS: '0.2',
    AIZK_HEARTBEAT_INTERVAL_SECONDS: '0.5',
    ...extra,
  }
}

/**
 * The environment of a worker bound to the fixture jobs with FAST_ENV, on `url`. No scheduler
 * unless `extra` asks (workerEnv's default): a test spanning a minute's turn would find the
 * every-minute jobs queued beside the rows it checks.
 */
export function fastWorkerEnv(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return workerEnv(url, { AIZK_WORKER_JOB_MODULES: TEST_JOBS, ...FAST_ENV, ...extra })
}

/** `build`: another build of aizk to run (the previous release's, test/support/previous-release.ts). */
export function spawnWorker(env: Record<string, string>, args: string[] = [], build = { bin: binPath, root: repoRoot }): WorkerProcess {
  const child = spawn(process.execPath, [build.bin, 'worker', ...args], { cwd: build.root, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
  // Never leave a worker behind, even when the test process itself is ended early.
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)
  child.once('close', () => process.off('exit', killOnExit))
  const events: WorkerEvent[] = []
  const badLines: string[] = []
  const waiters = new Set<() => void>()
  let raw = ''
  let pending = ''
  let stderr = ''
  child.stdout?.setEncoding('utf8')
  child.stdout?.on('data', (chunk: string) => {
    raw += chunk
    pending += chunk
    const lines = pending.split('\n')
    pending = lines.pop() ?? ''
    for (const line of lines) {
      if (!line) continue
      try {
        const parsed = JSON.parse(line)
        if (parsed && typeof parsed === 'object' && typeof parsed.event === 'string') events.push(parsed)
        else badLines.push(line)
      } catch {
        badLines.push(line)
      }
    }
    for (const w of [...waiters]) w()
  })
  child.stderr?.on('data', (d) => {
    stderr += d
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => {
      for (const w of [...waiters]) w()
      resolve({ code, signal })
    })
  })
  let closed = false
  void exited.then(() => {
    closed = true
    for (const w of [...waiters]) w()
  })

  const waitForCount = (match: (e: WorkerEvent) => boolean, count: number, what: string, guardMs = 60_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        const n = events.filter(match).length
        if (n >= count) return done(() => resolve())
        if (closed) return done(() => reject(new Error(`worker exited before ${what} (${n}/${count}); stderr: ${stderr}`)))
      }
      // A guard so a broken worker fails the test with its output instead of hanging it.
      const guard = setTimeout(() => done(() => reject(new Error(`gave up waiting for ${what}; stderr: ${stderr}`))), guardMs)
      const done = (fn: () => void) => {
        clearTimeout(guard)
        waiters.delete(check)
        fn()
      }
      waiters.add(check)
      check()
    })

  return {
    child,
    events,
    badLines,
    rawStdout: () => raw,
    stderr: () => stderr,
    waitForCount,
    async waitFor(match, what, guardMs) {
      await waitForCount(match, 1, what, guardMs)
      return events.find(match) as WorkerEvent
    },
    exited,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (!closed && child.exitCode === null && child.signalCode === null) child.kill(signal)
      await exited
    },
    async stop() {
      if (!closed && child.exitCode === null) child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
      const { code } = await exited
      clearTimeout(timer)
      return code
    },
  }
}

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

export const isEvent = (name: string, entrypoint?: string) => (e: WorkerEvent) => e.event === name && (entrypoint === undefined || e.entrypoint === entrypoint)

/** Stop every worker, however the test ended: SIGKILL what is still alive. */
export async function killAll(workers: WorkerProcess[]): Promise<void> {
  for (const w of workers) w.kill('SIGKILL')
  await Promise.all(workers.map((w) => w.exited))
}

/** A worker with JSON lines, its events also as `lines`: the pipeline's end-to-end tests. */
export type WorkerWithLines = WorkerProcess & { lines: WorkerEvent[] }

export function startWorker(env: Record<string, string>): WorkerWithLines {
  const worker = spawnWorker({ AIZK_WORKER_OUTPUT: 'json', ...env })
  return Object.assign(worker, { lines: worker.events })
}
