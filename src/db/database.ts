/**
 * Open the database a command works on: resolve the server, connect, and make sure the schema
 * is there. On the embedded default a missing or behind schema is installed; on a configured
 * server it is exit 4 with "run `aizk install`".
 */
import type pg from 'pg'
import { DatabaseError } from '../errors.js'
import type { Settings } from '../settings.js'
import { attachAppLogin, checkAppLogin } from './app-login.js'
import { enableLogParity } from './log-parity.js'
import { checkConnection, connectionError, createPool, type DatabaseTarget, resolveDatabase } from './connect.js'
import { migrate, schemaState } from './migrate.js'

export interface Database {
  pool: pg.Pool
  target: DatabaseTarget
  close(): Promise<void>
}

export interface OpenOptions {
  /** Check (and on the embedded server, install) the schema. Default true. */
  requireSchema?: boolean
  poolSize?: number
  applicationName?: string
  log?: (line: string) => void
}

export async function openDatabase(settings: Settings, opts: OpenOptions = {}): Promise<Database> {
  const target = await resolveDatabase(settings, opts.log)
  const pool = createPool(target.url, { max: opts.poolSize, applicationName: opts.applicationName })
  const app = settings.appDatabaseUrl ? createPool(settings.appDatabaseUrl, { max: opts.poolSize, applicationName: opts.applicationName }) : undefined
  if (settings.queueLogParity) for (const p of [pool, app]) if (p) enableLogParity(p)
  const close = async () => {
    await Promise.all([pool.end(), app?.end()])
  }
  try {
    await checkConnection(pool, target.url)
    if (opts.requireSchema !== false) await ensureSchema(pool, target, settings, opts.log)
    if (app && settings.appDatabaseUrl) {
      await checkConnection(app, settings.appDatabaseUrl)
      await checkAppLogin(app, settings.appRole)
      attachAppLogin(pool, app)
    }
  } catch (err) {
    await close().catch(() => {})
    throw err
  }
  return { pool, target, close }
}

async function ensureSchema(pool: pg.Pool, target: DatabaseTarget, settings: Settings, log?: (line: string) => void): Promise<void> {
  const client = await pool.connect().catch((err) => {
    throw connectionError(err, target.url)
  })
  try {
    const state = await schemaState(client, { appRole: settings.appRole })
    if (state.pending.length === 0) return
    if (!target.embedded) {
      const what = state.installed ? `behind (version ${state.current}, this aizk needs ${state.latest})` : 'not installed'
      throw new DatabaseError(`the aizk schema is ${what} in this database`, 'run `aizk install`')
    }
    const result = await migrate(client, { appRole: settings.appRole })
    if (result.applied.length) log?.(`aizk: installed schema version ${result.current} in the embedded database`)
  } finally {
    client.release()
  }
}
