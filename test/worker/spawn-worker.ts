/**
 * Spawn a real `aizk worker` (bin/run.js over dist/) bound to the test jobs of
 * test/fixtures/test-jobs.mjs, with timings small enough for tests to run in seconds.
 * Its stdout is JSON lines (no terminal), parsed here so tests wait on events, not sleeps.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import path from 'node:path'
import readline from 'node:readline'
import { binPath, cleanEnv, repoRoot } from '../helpers/cli.js'

export const TEST_JOBS = path.join(repoRoot, 'test', 'fixtures', 'test-jobs.mjs')

export interface WorkerEvent {
  event: string
  [key: string]: unknown
}

export interface SpawnedWorker {
  child: ChildProcess
  events: WorkerEvent[]
  stderr(): string
  /** Resolves with the first event (seen or future) matching `match`. */
  waitFor(match: (e: WorkerEvent) => boolean, what?: string, timeoutMs?: number): Promise<WorkerEvent>
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  kill(signal?: NodeJS.Signals): void
}

export const FAST_ENV = {
  AIZK_HEARTBEAT_INTERVAL_SECONDS: '0.2',
  AIZK_HEARTBEAT_TIMEOUT_SECONDS: '1.5',
  AIZK_POLL_INTERVAL_SECONDS: '0.2',
  AIZK_RETRY_BASE_SECONDS: '0.05',
  AIZK_RETRY_MAX_SECONDS: '0.2',
}

export function spawnWorker(url: string, args: string[] = [], env: Record<string, string> = {}): SpawnedWorker {
  const child = spawn(process.execPath, [binPath, 'worker', ...args], {
    env: cleanEnv({ AIZK_DATABASE_URL: url, AIZK_WORKER_JOB_MODULES: TEST_JOBS, ...FAST_ENV, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const events: WorkerEvent[] = []
  const waiters: { match: (e: WorkerEvent) => boolean; resolve: (e: WorkerEvent) => void }[] = []
  let stderr = ''
  child.stderr?.on('data', (d) => {
    stderr += d
  })
  readline.createInterface({ input: child.stdout! }).on('line', (line) => {
    let e: WorkerEvent
    try {
      e = JSON.parse(line)
    } catch {
      return
    }
    events.push(e)
    for (const w of [...waiters]) {
      if (w.match(e)) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve(e)
      }
    }
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  )
  return {
    child,
    events,
    stderr: () => stderr,
    waitFor(match, what = 'event', timeoutMs = 60_000) {
      const seen = events.find(match)
      if (seen) return Promise.resolve(seen)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; stderr: ${stderr.slice(-2000)}`)), timeoutMs)
        waiters.push({
          match,
          resolve: (e) => {
            clearTimeout(timer)
            resolve(e)
          },
        })
        exited.then(({ code, signal }) => {
          clearTimeout(timer)
          reject(new Error(`worker exited (${code ?? signal}) while waiting for ${what}; stderr: ${stderr.slice(-2000)}`))
        })
      })
    },
    exited,
    kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
    },
  }
}

/** Stop every worker, however the test ended: SIGKILL what is still alive. */
export async function killAll(workers: SpawnedWorker[]): Promise<void> {
  for (const w of workers) w.kill('SIGKILL')
  await Promise.all(workers.map((w) => w.exited))
}

export const FIXTURE_TABLES = `
  CREATE TABLE IF NOT EXISTS test_runs (seq bigserial PRIMARY KEY, job_id bigint, entrypoint text, attempts int, pid int, note text, at timestamptz DEFAULT clock_timestamp());
  CREATE TABLE IF NOT EXISTS test_counter (name text PRIMARY KEY, running int NOT NULL DEFAULT 0, max_running int NOT NULL DEFAULT 0, done int NOT NULL DEFAULT 0);
`

/** Poll a condition (a database probe) until it holds: no fixed sleeps, it returns as soon as it does. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}
