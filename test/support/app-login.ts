/**
 * Isolation tests connect as a login that is neither owner nor superuser: a member of the app
 * role and nothing else, as the application would. Row security then decides, not privilege.
 * Roles are cluster-wide, so each test file makes its own and drops it afterwards.
 */
import { before } from 'node:test'
import type pg from 'pg'
import { createPool } from '../../src/db/connect.js'
import { adminQuery, type TestDatabase, type TestDatabaseHandle } from './db.js'

export interface AppLogin {
  role: string
  /** The login's own connections: what SQL issued inside a scoped transaction runs on. */
  pool: pg.Pool
  /**
   * An owner pool carrying this login (AIZK_APP_DATABASE_URL's arrangement): pass it to
   * User.transaction, which runs the transaction on the login and asks the owner for the proof.
   */
  scoped: pg.Pool
  /** The login's URL, as AIZK_APP_DATABASE_URL would name it. */
  url: string
  drop(): Promise<void>
}

/** `max`: the login pool's size; 1 makes every scoped transaction share one connection, as a busy pool may. */
export async function createAppLogin(db: TestDatabase, appRole = 'aizk_app', opts: { max?: number } = {}): Promise<AppLogin> {
  const role = `aizk_test_login_${process.pid}_${Math.random().toString(36).slice(2, 8)}`
  // A password too: the embedded server authenticates with scram-sha-256, not trust.
  const password = Math.random().toString(36).slice(2)
  await adminQuery(`create role ${role} login password '${password}' nosuperuser nobypassrls noinherit in role ${appRole}`)
  const url = new URL(db.url)
  url.username = role
  url.password = password
  const pool = createPool(url.toString(), { max: opts.max ?? 4 })
  const scoped = createPool(db.url, { max: 2, appLogin: pool })
  return {
    role,
    pool,
    scoped,
    url: url.toString(),
    async drop() {
      await pool.end().catch(() => {})
      await scoped.end().catch(() => {})
      await adminQuery(`drop role if exists ${role}`)
    },
  }
}

/**
 * testDatabase()'s companion: a login of the file's own on `db`, made in a `before` hook
 * (after the database's) and dropped before the database is.
 */
export function testAppLogin(db: TestDatabaseHandle, appRole = 'aizk_app', opts: { max?: number } = {}): AppLogin {
  const handle = {} as AppLogin
  before(async () => {
    Object.assign(handle, await createAppLogin(db, appRole, opts))
  })
  db.beforeDrop(() => handle.drop?.())
  return handle
}

/** testAppLogin() for a file's top level (see fileDatabase()): the login is made while the module loads. */
export async function fileAppLogin(db: TestDatabaseHandle, appRole = 'aizk_app', opts: { max?: number } = {}): Promise<AppLogin> {
  const login = await createAppLogin(db, appRole, opts)
  db.beforeDrop(() => login.drop())
  return login
}

/** Fixed scope ids for readable tests: A < B < C as PostgreSQL sorts them. */
export const A = 'aaaaaaaa-0000-4000-8000-000000000001'
export const B = 'bbbbbbbb-0000-4000-8000-000000000002'
export const C = 'cccccccc-0000-4000-8000-000000000003'
export const SYSTEM = '00000000-0000-4000-a000-000000000001'
export const identity = { systemUserId: SYSTEM, appRole: 'aizk_app' }
