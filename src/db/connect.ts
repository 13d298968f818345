/**
 * Which server, and a pool on it. `AIZK_DATABASE_URL` selects a configured server; unset, the
 * embedded one in aizk's data folder is found or started. Connection failures become a
 * DatabaseError (exit 4) naming the address tried, never a stack trace.
 */
import pg from 'pg'
import { DatabaseError, errorMessage } from '../errors.js'
import type { Settings } from '../settings.js'
import { CallTracker, DEADLINE_CODE, DeadlineClient, type DeadlineClientConfig } from './deadline-client.js'

// bigint (int8) columns come back as strings: job ids never pass through a JS number unchecked.
export interface DatabaseTarget {
  url: string
  embedded: boolean
  dataDir?: string
}

export async function resolveDatabase(settings: Settings, log: (line: string) => void = () => {}): Promise<DatabaseTarget> {
  if (settings.databaseUrl) return { url: settings.databaseUrl, embedded: false }
  // The embedded server's code loads only when it is the server used.
  const { defaultDataDir, ensureEmbeddedServer } = await import('./embedded.js')
  const dataDir = settings.dataDir ?? defaultDataDir(settings.env)
  const server = await ensureEmbeddedServer({ dataDir, port: settings.embeddedPort, log, env: settings.env })
  return { url: server.url, embedded: true, dataDir }
}

/** host:port/database of a URL, without credentials, for messages. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url)
    return `${u.hostname || 'localhost'}:${u.port || 5432}${u.pathname || ''}`
  } catch {
    return '(unparseable URL)'
  }
}

const CONNECT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET', '57P03'])
/** Codes of a link that dropped after it was up: the server shut down, a socket broke. */
const LOST_CODES = new Set(['EPIPE', '57P01', '57P02', '08000', '08003', '08006', DEADLINE_CODE])

/**
 * Whether `err` says the server is unreachable or the link dropped (not an SQL error): the one
 * classifier, for connecting (is it worth waiting?) and for a running worker (an outage, not a bug).
 */
export function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: string } | undefined)?.code ?? ''
  if (CONNECT_CODES.has(code) || LOST_CODES.has(code)) return true
  // Any other SQLSTATE is the server answering (a statement timeout, a constraint): not an outage.
  if (/^[0-9A-Z]{5}$/.test(code)) return false
  return /timeout|terminat|connect|closed|ended|starting up|shutting down/i.test(errorMessage(err))
}

/** Turn a connection-time failure into the operator-facing DatabaseError. */
export function connectionError(err: unknown, url: string): DatabaseError {
  if (err instanceof DatabaseError) return err
  const code = (err as { code?: string }).code ?? ''
  const where = describeUrl(url)
  if (code === '3D000') {
    return new DatabaseError(`database does not exist at ${where}`, 'create it, or point AIZK_DATABASE_URL at an existing database')
  }
  if (code === '28P01' || code === '28000') {
    return new DatabaseError(`authentication failed at ${where}: ${errorMessage(err)}`, 'check the user and password in AIZK_DATABASE_URL')
  }
  const reachable = isConnectionError(err)
  return new DatabaseError(
    `cannot reach PostgreSQL at ${where}: ${errorMessage(err)}`,
    reachable
      ? 'is the server running and AIZK_DATABASE_URL right? Unset AIZK_DATABASE_URL to use the embedded server'
      : 'check AIZK_DATABASE_URL',
    // A server that refuses connections or is still starting may answer soon: worth waiting for.
    { code: code || null, transient: reachable },
  )
}

export interface PoolOptions {
  max?: number
  applicationName?: string
  /** Deadline of each round trip and of connecting, ms; 0: none (connecting still gives up after 10 s). */
  deadlineMs?: number
  /** Idle time before TCP keepalive probes start, ms. Default 10 s. */
  keepAliveMs?: number
  /** False behind a transaction pooler (deadline-client.ts). Default true. */
  namedStatements?: boolean
  /** Where a LISTEN connection for this pool goes: default `url` itself; false: nowhere, poll only. */
  listenUrl?: string | false
}

/** The pool options the settings give: the round-trip deadline and the keepalive. */
export function connectionLimits(settings: Pick<Settings, 'dbDeadlineSeconds' | 'dbKeepaliveSeconds'>): Required<Pick<PoolOptions, 'deadlineMs' | 'keepAliveMs'>> {
  // Settings built by hand (tests, embedding applications) may lack them: the schema's defaults.
  return { deadlineMs: Math.round((settings.dbDeadlineSeconds ?? 15) * 1000), keepAliveMs: Math.round((settings.dbKeepaliveSeconds ?? 10) * 1000) }
}

interface PoolFacts {
  config: DeadlineClientConfig
  listen: DeadlineClientConfig | false
  calls: CallTracker
  clients: Set<DeadlineClient>
}

const pools = new WeakMap<pg.Pool, PoolFacts>()

/** The LISTEN connection's settings for a pool from `createPool`; false: it polls only (PoolOptions.listenUrl). */
export function listenConfigOf(pool: pg.Pool): DeadlineClientConfig | false | undefined {
  return pools.get(pool)?.listen
}

/** The round trips of a pool from `createPool` that are on their way (health reads their age). */
export function callsOf(pool: pg.Pool): CallTracker | undefined {
  return pools.get(pool)?.calls
}

/**
 * A pool whose clients all have TCP keepalive and, with `deadlineMs`, a deadline on each round
 * trip (deadline-client.ts). Idle-client errors (a restarted server) are reported, never thrown.
 */
export function createPool(url: string, opts: PoolOptions = {}): pg.Pool {
  const calls = new CallTracker()
  const deadlineMs = opts.deadlineMs ?? 0
  const config: DeadlineClientConfig = {
    connectionString: url,
    application_name: opts.applicationName ?? 'aizk',
    connectionTimeoutMillis: deadlineMs > 0 ? deadlineMs : 10_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: opts.keepAliveMs ?? 10_000,
    deadlineMs,
    calls,
    namedStatements: opts.namedStatements ?? true,
  }
  const listen = opts.listenUrl === false ? false : { ...config, connectionString: opts.listenUrl ?? url }
  const pool = new pg.Pool({ ...config, Client: DeadlineClient as unknown as typeof pg.Client, max: opts.max ?? 10, idleTimeoutMillis: 30_000 })
  const clients = new Set<DeadlineClient>()
  pools.set(pool, { config, listen, calls, clients })
  pool.on('error', () => {
    // An idle client lost its connection (server restart); the pool replaces it on next use.
  })
  pool.on('connect', (client) => {
    clients.add(client as unknown as DeadlineClient)
    // A checked-out client whose connection drops between queries emits 'error'; unheard, that
    // would end the process. The failure reaches its holder through the next query instead.
    client.on('error', () => {})
  })
  pool.on('remove', (client) => clients.delete(client as unknown as DeadlineClient))
  return pool
}

/**
 * End a pool within `graceMs`: connections that have not said goodbye by then (a silent
 * network) are destroyed. Resolves with how many had to be destroyed. pg's pool.end() resolves
 * once no client is checked out, while each client's goodbye may still wait for the peer's
 * FIN: such a socket would keep the process alive, so the clients are watched until each is gone.
 */
export async function closePool(pool: pg.Pool, graceMs: number): Promise<number> {
  const clients = pools.get(pool)?.clients ?? new Set<DeadlineClient>()
  const deadline = Date.now() + graceMs
  const ended = pool.end().catch(() => {})
  let timer: NodeJS.Timeout | undefined
  await Promise.race([ended, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))])
  clearTimeout(timer)
  while (clients.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
  const silent = [...clients]
  for (const client of silent) client.destroy()
  return silent.length
}

/** Connect once to prove the server answers, mapping failure to exit 4. */
export async function checkConnection(pool: pg.Pool, url: string): Promise<void> {
  try {
    const client = await pool.connect()
    client.release()
  } catch (err) {
    throw connectionError(err, url)
  }
}
