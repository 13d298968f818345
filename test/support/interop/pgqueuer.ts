/**
 * The real PgQueuer 1.3.2 beside aizk: test/interop/py/pgq.py run by the project's venv
 * (scripts/setup-pgqueuer.sh) with PgQueuer imported from its source folder. Where Python, the
 * venv, its packages or the source are missing, `requirePgQueuer` throws one line naming what,
 * so the suite fails instead of skipping; the one exception is `pgqueuerAbsent`.
 *   AIZK_PGQUEUER_SRC     PgQueuer's source folder (default ../shared/vendor/pgqueuer-1.3.2);
 *                         .ci/run always sets it
 *   AIZK_PGQUEUER_PYTHON  the Python to run (default .venv-pgq/bin/python)
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import readline from 'node:readline'
import { repoRoot } from '../cli.js'

export const PGQUEUER_SRC = path.resolve(repoRoot, process.env.AIZK_PGQUEUER_SRC ?? path.join('..', 'shared', 'vendor', 'pgqueuer-1.3.2'))
export const PGQUEUER_PYTHON = process.env.AIZK_PGQUEUER_PYTHON ?? path.join(repoRoot, '.venv-pgq', 'bin', 'python')
const DRIVER = path.join(repoRoot, 'test', 'interop', 'py', 'pgq.py')

/**
 * Why the interop suite is skipped, or false: in a clone outside this project's layout (no
 * PgQueuer source at the default place, AIZK_PGQUEUER_SRC unset) the suite cannot run and says
 * so. A source folder named by AIZK_PGQUEUER_SRC that is missing fails the suite instead.
 */
export const pgqueuerAbsent: string | false =
  process.env.AIZK_PGQUEUER_SRC === undefined && !sourcePresent()
    ? `PgQueuer 1.3.2 source not found at ${PGQUEUER_SRC}: set AIZK_PGQUEUER_SRC to its folder to run the interop suite`
    : false

function sourcePresent(): boolean {
  return existsSync(path.join(PGQUEUER_SRC, 'pgqueuer', 'qm.py'))
}

let checked: string | null | undefined

/** Throws one line naming what is missing; cheap after the first call. */
export function requirePgQueuer(): void {
  checked ??= findMissing()
  if (checked) throw new Error(`PgQueuer interop suite cannot run: ${checked}`)
}

function findMissing(): string | null {
  if (!sourcePresent()) {
    return `PgQueuer 1.3.2 source not found at ${PGQUEUER_SRC} (set AIZK_PGQUEUER_SRC)`
  }
  if (!existsSync(PGQUEUER_PYTHON)) {
    return `Python venv ${PGQUEUER_PYTHON} missing (run scripts/setup-pgqueuer.sh, or set AIZK_PGQUEUER_PYTHON)`
  }
  const probe = spawnSync(PGQUEUER_PYTHON, ['-c', 'import asyncpg, anyio, croniter, pydantic_settings, typer, uvloop, pgqueuer.qm'], {
    env: pythonEnv(),
    encoding: 'utf8',
  })
  if (probe.status !== 0) {
    const last = (probe.stderr || probe.error?.message || 'unknown error').trim().split('\n').at(-1)
    return `${PGQUEUER_PYTHON} cannot import PgQueuer or its packages: ${last} (run scripts/setup-pgqueuer.sh)`
  }
  return null
}

function pythonEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('AIZK_') && !k.startsWith('PG')) env[k] = v
  return { ...env, PYTHONPATH: PGQUEUER_SRC, PYTHONUNBUFFERED: '1' }
}

export interface PgqEvent {
  event: string
  [key: string]: unknown
}

/** Run one pgq.py command to its end; its JSON lines, or a rejection with its stderr. */
export function pgq(url: string, args: string[]): Promise<PgqEvent[]> {
  requirePgQueuer()
  return new Promise((resolve, reject) => {
    const child = spawn(PGQUEUER_PYTHON, [DRIVER, url, ...args], { env: pythonEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => {
      out += d
    })
    child.stderr.on('data', (d) => {
      err += d
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('close', (code) => {
      clearTimeout(timer)
      if (code !== 0) reject(new Error(`pgq ${args[0]} exited ${code}: ${err.trim().split('\n').slice(-5).join(' | ')}`))
      else
        resolve(
          out
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as PgqEvent),
        )
    })
  })
}

export const pgqOne = async (url: string, args: string[]) => (await pgq(url, args)).at(-1) as PgqEvent

export interface PgqWorker {
  child: ChildProcess
  events: PgqEvent[]
  queueManagerId: Promise<string>
  waitFor(match: (e: PgqEvent) => boolean, what: string, timeoutMs?: number): Promise<PgqEvent>
  /** SIGTERM (PgQueuer drains) or SIGKILL; resolves when the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<void>
}

export interface PgqWorkerOptions {
  limit?: number
  sleep?: number
  fail?: boolean
  hold?: boolean
  batchSize?: number
  /** PgQueuer's dequeue_timeout: how long it waits for a NOTIFY before polling (s). */
  poll?: number
  heartbeatTimeout?: number
}

/** A running PgQueuer QueueManager bound to `entrypoints`; one JSON line per job start and end. */
export function startPgqWorker(url: string, entrypoints: string[], o: PgqWorkerOptions = {}): PgqWorker {
  requirePgQueuer()
  const args = [DRIVER, url, 'worker', ...entrypoints]
  if (o.limit !== undefined) args.push('--limit', String(o.limit))
  if (o.sleep !== undefined) args.push('--sleep', String(o.sleep))
  if (o.fail) args.push('--fail')
  if (o.hold) args.push('--hold')
  if (o.batchSize !== undefined) args.push('--batch-size', String(o.batchSize))
  if (o.poll !== undefined) args.push('--poll', String(o.poll))
  if (o.heartbeatTimeout !== undefined) args.push('--heartbeat-timeout', String(o.heartbeatTimeout))
  const child = spawn(PGQUEUER_PYTHON, args, { env: pythonEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
  const events: PgqEvent[] = []
  const waiters: { match: (e: PgqEvent) => boolean; resolve: (e: PgqEvent) => void }[] = []
  let stderr = ''
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4000)
  })
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    let e: PgqEvent
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
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  const waitFor = (match: (e: PgqEvent) => boolean, what: string, timeoutMs = 60_000) => {
    const seen = events.find(match)
    if (seen) return Promise.resolve(seen)
    return new Promise<PgqEvent>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for PgQueuer ${what}; stderr: ${stderr}`)), timeoutMs)
      waiters.push({
        match,
        resolve: (e) => {
          clearTimeout(timer)
          resolve(e)
        },
      })
      exited.then(() => {
        clearTimeout(timer)
        reject(new Error(`PgQueuer worker exited while waiting for ${what}; stderr: ${stderr}`))
      })
    })
  }
  return {
    child,
    events,
    queueManagerId: waitFor((e) => e.event === 'ready', 'ready').then((e) => String(e.queue_manager_id)),
    waitFor,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      const forced = setTimeout(() => child.kill('SIGKILL'), 15_000)
      await exited
      clearTimeout(forced)
    },
  }
}

export const hex = (b: Buffer) => b.toString('hex')

export interface PgqItem {
  payload?: Buffer | null
  json?: unknown
  key?: string | null
  priority?: number
  /** PgQueuer's execute_after: seconds from its NOW(). */
  delaySeconds?: number
}

/** PgQueuer's enqueue of a batch (one Python start); the ids, null where `skip` skipped one. */
export async function pgqEnqueue(url: string, entrypoint: string, items: PgqItem[], opts: { skip?: boolean } = {}): Promise<PgqEvent> {
  const many = items.map((i) => ({
    hex: i.json !== undefined ? hex(Buffer.from(JSON.stringify(i.json))) : i.payload ? hex(i.payload) : null,
    key: i.key ?? null,
    priority: i.priority ?? 0,
    ...(i.delaySeconds !== undefined ? { delay: i.delaySeconds } : {}),
  }))
  return pgqOne(url, ['enqueue', entrypoint, '--many', JSON.stringify(many), ...(opts.skip ? ['--skip'] : [])])
}

/** The ids of an `enqueued` event, as strings (aizk's bigint form). */
export const idsOf = (e: PgqEvent) => (e.ids as (number | null)[]).map((i) => (i === null ? null : String(i)))
