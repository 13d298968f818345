/**
 * Which server, and a pool on it. `AIZK_DATABASE_URL` selects a configured server; unset, the
 * embedded one in aizk's data folder is found or started. Connection failures become a
 * DatabaseError (exit 4) naming the address tried, never a stack trace.
 */
import type pg from 'pg'
import { DatabaseError, DatabaseReadOnlyError, errorMessage } from '../errors.js'
import type { Settings } from '../settings.js'
import { DatabasePool } from './database-pool.js'
import { CallTracker, DEADLINE_CODE, DeadlineClient, type DeadlineClientConfig } from './deadline-client.js'
import { isWriteRefused, readOnlyError, readOnlyReason, readOnlyReasonFromRow } from './read-only.js'
import { READ_ONLY_SQL } from './sql/read-only.js'

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
 * Whether `err` says the server is unreachable, the link dropped, or the server answers but
 * cannot write (a standby, a primary turned read-only: read-only.ts); not an SQL error of the
 * statement's own. The one classifier, for connecting (is it worth waiting?) and for a running
 * worker (an outage, not a bug).
 */
export function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: string } | undefined)?.code ?? ''
  if (CONNECT_CODES.has(code) || LOST_CODES.has(code) || isWriteRefused(err)) return true
  // Class 08, connection exception, whole (08001 unable to connect, 08004 rejected, 08P01 protocol violation, ...).
  if (code.startsWith('08') && code.length === 5) return true
  // Any other SQLSTATE is the server answering (a statement timeout, a constraint): not an outage.
  if (/^[0-9A-Z]{5}$/.test(code)) return false
  return /timeout|terminat|connect|closed|ended|starting up|shutting down/i.test(errorMessage(err))
}

/** Turn a connection-time failure into the operator-facing DatabaseError. */
export function connectionError(err: unknown, url: string): DatabaseError | DatabaseReadOnlyError {
  if (err instanceof DatabaseError || err instanceof DatabaseReadOnlyError) return err
  const code = (err as { code?: string }).code ?? ''
  const where = describeUrl(url)
  if (isWriteRefused(err)) return readOnlyError(where, `read-only (${errorMessage(err)})`)
  if (code === '3D000') {
    return new DatabaseError(`database does not exist at ${where}`, 'create it, or point AIZK_DATABASE_URL at an existing database')
  }
  if (code === '28P01' || code === '28000') {
    return new DatabaseError(`authentication failed at ${where}: ${errorMessage(err)}`, 'check the user and password in AIZK_DATABASE_URL')
  }
  const reachable = isConnectionError(err)
  return new DatabaseError(
    `cannot reach PostgreSQL at ${where}: ${errorMessage(err)}`,
    reachable ? 'is the server running and AIZK_DATABASE_URL right? Unset AIZK_DATABASE_URL to use the embedded server' : 'check AIZK_DATABASE_URL',
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
  /** Write PgQueuer's `queued` and `picked` log rows on this pool's connections (AIZK_QUEUE_LOG_PARITY). */
  logParity?: boolean
  /** Run scoped transactions asked of this pool on that one, the app role's own login (AIZK_APP_DATABASE_URL). */
  appLogin?: DatabasePool
  /** False behind a transaction pooler (deadline-client.ts). Default true. */
  namedStatements?: boolean
  /** Where a LISTEN connection for this pool goes: default `url` itself; false: nowhere, poll only. */
  listenUrl?: string | false
}

/** The pool options the settings give: the round-trip deadline and the keepalive. */
export function connectionLimits(
  settings: Pick<Settings, 'dbDeadlineSeconds' | 'dbKeepaliveSeconds'>,
): Required<Pick<PoolOptions, 'deadlineMs' | 'keepAliveMs'>> {
  // Settings built by hand (tests, embedding applications) may lack them: the schema's defaults.
  return { deadlineMs: Math.round((settings.dbDeadlineSeconds ?? 15) * 1000), keepAliveMs: Math.round((settings.dbKeepaliveSeconds ?? 10) * 1000) }
}

/** The LISTEN connection's settings for a pool from `createPool`; false: it polls only (PoolOptions.listenUrl). */
export function listenConfigOf(pool: pg.Pool): DeadlineClientConfig | false | undefined {
  return pool instanceof DatabasePool ? pool.listen : undefined
}

/** The round trips of a pool from `createPool` that are on their way (health reads their age). */
export function callsOf(pool: pg.Pool): CallTracker | undefined {
  return pool instanceof DatabasePool ? pool.calls : undefined
}

/**
 * A pool whose clients all have TCP keepalive and, with `deadlineMs`, a deadline on each round
 * trip (deadline-client.ts). Idle-client errors (a restarted server) are reported, never thrown.
 */
export function createPool(url: string, opts: PoolOptions = {}): DatabasePool {
  const deadlineMs = opts.deadlineMs ?? 0
  const client: DeadlineClientConfig = {
    connectionString: url,
    application_name: opts.applicationName ?? 'aizk',
    connectionTimeoutMillis: deadlineMs > 0 ? deadlineMs : 10_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: opts.keepAliveMs ?? 10_000,
    deadlineMs,
    calls: new CallTracker(),
    logParity: opts.logParity ?? false,
    namedStatements: opts.namedStatements ?? true,
  }
  const listen = opts.listenUrl === false ? false : { ...client, connectionString: opts.listenUrl ?? url }
  return new DatabasePool({ client, listen, max: opts.max ?? 10, idleTimeoutMillis: 30_000, appLogin: opts.appLogin })
}

/**
 * End a pool within `graceMs`: connections that have not said goodbye by then (a silent
 * network) are destroyed. Resolves with how many had to be destroyed. pg's pool.end() resolves
 * once no client is checked out, while each client's goodbye may still wait for the peer's
 * FIN: such a socket would keep the process alive, so the clients are watched until each is gone.
 */
export async function closePool(pool: pg.Pool, graceMs: number): Promise<number> {
  const clients = pool instanceof DatabasePool ? pool.clients : new Set<DeadlineClient>()
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

/**
 * Connect once to prove the server answers, mapping failure to exit 4. With `writable`, a server
 * that cannot write (a standby, a read-only primary) is refused too: read from the parameters it
 * reported while connecting, so no round trip is added on PostgreSQL 14 and later.
 */
export async function checkConnection(pool: pg.Pool, url: string, opts: { writable?: boolean } = {}): Promise<void> {
  let client: pg.PoolClient
  try {
    client = await pool.connect()
  } catch (err) {
    throw connectionError(err, url)
  }
  let why: string | undefined
  try {
    if (opts.writable) why = await readOnlyNow(client)
  } catch (err) {
    client.release(err as Error)
    throw connectionError(err, url)
  }
  client.release()
  if (why) throw readOnlyError(describeUrl(url), why)
}

/** Why this connection cannot write now, or undefined when it can. */
export async function readOnlyNow(client: pg.ClientBase): Promise<string | undefined> {
  const reported = client instanceof DeadlineClient ? client.reported : undefined
  if (reported?.has('in_hot_standby')) return readOnlyReason(reported)
  return readOnlyReasonFromRow((await client.query(READ_ONLY_SQL)).rows[0])
}
