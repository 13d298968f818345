/**
 * Open the database a command works on: resolve the server, connect, and make sure the schema
 * is there. On the embedded default a missing or behind schema is installed; on a configured
 * server it is exit 4 with "run `aizk install`".
 */
import type pg from 'pg'
import { ConfigError, DatabaseError } from '../errors.js'
import type { Settings } from '../settings.js'
import { checkAppLogin } from './app-login.js'
import {
  checkConnection,
  closePool,
  connectionError,
  connectionLimits,
  createPool,
  type DatabaseTarget,
  isConnectionError,
  type PoolOptions,
  resolveDatabase,
} from './connect.js'
import type { DatabasePool } from './database-pool.js'
import { describeAhead, isAhead, migrate, schemaState } from './migrate.js'

export interface Database {
  /** The owner login's pool; it carries the app login and the log-parity setting (database-pool.ts). */
  pool: DatabasePool
  target: DatabaseTarget
  /**
   * Another pool on the same server and logins, closed with this database: the worker's
   * handlers' pool, apart from the queue's so handlers never take the queue's connections.
   */
  addPool(opts: Pick<PoolOptions, 'max' | 'applicationName' | 'deadlineMs'>): DatabasePool
  /** End every pool; connections silent for `graceMs` (default the deadline) are destroyed. Resolves with how many were. */
  close(graceMs?: number): Promise<number>
}

export interface OpenOptions {
  /** Check (and on the embedded server, install) the schema. Default true. */
  requireSchema?: boolean
  poolSize?: number
  applicationName?: string
  log?: (line: string) => void
  /**
   * Bound each round trip by AIZK_DB_DEADLINE_SECONDS (the default). False for commands whose
   * statements may rightly run long (install's migrations, ingest, graph builds, prune).
   */
  deadline?: boolean
  /**
   * The command needs a session of its own (a session advisory lock, a session setting): behind a
   * transaction pooler it connects to AIZK_DIRECT_DATABASE_URL instead, and refuses without it.
   */
  session?: boolean
  /**
   * The command only reads: it may run on a hot standby or a read-only primary. Otherwise such a
   * server is refused at connect, exit 4 `database_read_only` (docs/running-the-worker.md#read-only-servers).
   */
  readOnly?: boolean
}

export async function openDatabase(settings: Settings, opts: OpenOptions = {}): Promise<Database> {
  const pooled = settings.databasePoolMode === 'transaction'
  const direct = pooled && opts.session === true
  if (direct && !settings.directDatabaseUrl) {
    throw new ConfigError([
      'AIZK_DATABASE_POOL_MODE=transaction: this command needs a session of its own, which a transaction pooler does not keep; set AIZK_DIRECT_DATABASE_URL to PostgreSQL itself (docs/deployment.md#pgbouncer)',
    ])
  }
  const target = direct ? { url: settings.directDatabaseUrl as string, embedded: false } : await resolveDatabase(settings, opts.log)
  const limits = connectionLimits(settings)
  const pools: DatabasePool[] = []
  // Behind a transaction pooler: no named statements, and LISTEN goes to PostgreSQL itself, or nowhere.
  const sessionless = pooled && !direct ? { namedStatements: false, listenUrl: settings.directDatabaseUrl ?? (false as const) } : {}
  const open = (o: Pick<PoolOptions, 'max' | 'applicationName' | 'deadlineMs'>): DatabasePool => {
    const options = { keepAliveMs: limits.keepAliveMs, logParity: settings.queueLogParity, ...sessionless, ...o }
    const app = settings.appDatabaseUrl ? createPool(settings.appDatabaseUrl, options) : undefined
    const owner = createPool(target.url, { ...options, appLogin: app })
    pools.push(owner, ...(app ? [app] : []))
    return owner
  }
  const pool = open({ max: opts.poolSize, applicationName: opts.applicationName, deadlineMs: opts.deadline === false ? 0 : limits.deadlineMs })
  const app = pool.appLogin
  const close = async (graceMs = limits.deadlineMs) => {
    const destroyed = await Promise.all(pools.map((p) => closePool(p, graceMs)))
    return destroyed.reduce((a, b) => a + b, 0)
  }
  try {
    const writable = opts.readOnly !== true
    await checkConnection(pool, target.url, { writable })
    if (opts.requireSchema !== false) await ensureSchema(pool, target, settings, opts.log)
    if (app && settings.appDatabaseUrl) {
      await checkConnection(app, settings.appDatabaseUrl, { writable })
      await checkAppLogin(app, settings.appRole)
    }
  } catch (err) {
    await close().catch(() => {})
    throw err
  }
  return { pool, target, close, addPool: open }
}

async function ensureSchema(pool: pg.Pool, target: DatabaseTarget, settings: Settings, log?: (line: string) => void): Promise<void> {
  const state = await withClient(pool, target, (client) => schemaState(client, { appRole: settings.appRole }))
  if (state.pending.length === 0 && state.pendingDefinitions.length === 0) return
  // A newer aizk's install: its schema keeps what this release calls for one release
  // (docs/schema.md#rolling-upgrades), and installing this release's files would undo it.
  if (state.pending.length === 0 && isAhead(state)) {
    log?.(`aizk: the schema was installed by a newer aizk (${describeAhead(state)}); running on it`)
    return
  }
  if (!target.embedded) {
    const what = !state.installed
      ? 'not installed'
      : state.pending.length
        ? `behind (version ${state.current}, this aizk needs ${state.latest})`
        : `behind (${state.pendingDefinitions.length} function, trigger or policy definitions changed)`
    throw new DatabaseError(`the aizk schema is ${what} in this database`, 'run `aizk install`')
  }
  // A migration may rightly take longer than a queue round trip: its own connection, no deadline.
  const installer = createPool(target.url, { max: 1, keepAliveMs: connectionLimits(settings).keepAliveMs })
  try {
    const result = await withClient(installer, target, (client) => migrate(client, { appRole: settings.appRole }))
    if (result.applied.length || result.definitions.length) log?.(`aizk: installed schema version ${result.current} in the embedded database`)
  } finally {
    await closePool(installer, 5000)
  }
}

async function withClient<T>(pool: pg.Pool, target: DatabaseTarget, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect().catch((err) => {
    throw connectionError(err, target.url)
  })
  let broken: Error | undefined
  try {
    return await fn(client)
  } catch (err) {
    broken = err as Error
    // A connection lost or stalled while reading or installing the schema is an outage (exit 4),
    // like one at connect time; an answer from the server (a SQL error) stays as it is.
    throw isConnectionError(err) ? connectionError(err, target.url) : err
  } finally {
    client.release(broken)
  }
}
