/**
 * A database of the test file's own, cloned from the migrated template that test/run.mjs made.
 * Real PostgreSQL, never a mock; dropped when the file is done.
 */
import { after, before, beforeEach } from 'node:test'
import pg from 'pg'

export interface TestDatabase {
  name: string
  url: string
  pool: pg.Pool
  drop(): Promise<void>
}

export function baseUrl(): string {
  const url = process.env.AIZK_TEST_BASE_URL
  if (!url) throw new Error('run tests through `npm test` (test/run.mjs prepares the database)')
  return url
}

export function urlFor(db: string): string {
  const u = new URL(baseUrl())
  u.pathname = `/${db}`
  return u.toString()
}

let counter = 0

/** One connection of its own to `url` for `fn`, closed after: for a server that restarts under the test. */
export async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

export async function adminQuery(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  return withClient(urlFor('postgres'), (c) => c.query(sql, params))
}

/** An empty database (no schema), for install and adoption tests. */
export async function createEmptyDatabase(): Promise<TestDatabase> {
  return create(null)
}

/** A database with the full aizk schema, cloned from the template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = process.env.AIZK_TEST_TEMPLATE
  if (!template) throw new Error('run tests through `npm test` (test/run.mjs prepares the template)')
  return create(template)
}

async function create(template: string | null): Promise<TestDatabase> {
  // The run's prefix (test/run.mjs) names whose database this is, so a later run of this user
  // can tell it was left by a dead run and no one else's run touches it.
  const prefix = process.env.AIZK_TEST_DATABASE_PREFIX
  if (!prefix) throw new Error('run tests through `npm test` (test/run.mjs names the databases)')
  const name = `${prefix}_${process.pid}_${++counter}_${Math.random().toString(36).slice(2, 8)}`
  // CREATE DATABASE ... TEMPLATE fails while another session is connected to the template;
  // files clone concurrently, so retry that one error briefly.
  for (let attempt = 0; ; attempt++) {
    try {
      await adminQuery(`create database ${name}${template ? ` template ${template}` : ''}`)
      break
    } catch (err) {
      if (attempt > 50 || !/being accessed by other users/.test((err as Error).message)) throw err
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200))
    }
  }
  const url = urlFor(name)
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  pool.on('error', () => {})
  return {
    name,
    url,
    pool,
    async drop() {
      await pool.end().catch(() => {})
      await adminQuery(`drop database if exists ${name} with (force)`)
    },
  }
}

/** What fileDatabase() and testDatabase() return: a TestDatabase, dropped by their `after` hook. */
export interface TestDatabaseHandle extends TestDatabase {
  /**
   * The file's teardown: `fn` runs in the `after` hook before the database is dropped, last
   * registered first, so stop there what still uses it. (node:test runs `after` hooks in
   * registration order: a file's own `after`, registered after testDatabase(), would run once
   * the database is gone.)
   */
  beforeDrop(fn: () => unknown): void
}

export interface TestDatabaseOptions {
  /** No schema at all (install and adoption tests); by default the migrated template's clone. */
  empty?: boolean
  /** Tables truncated before each test (queue tests: ['pgqueuer', 'pgqueuer_log']). */
  emptied?: readonly string[]
}

/**
 * The one way a test file gets a database, inside a describe block: a database of the block's own,
 * created in its `before` hook, `emptied` truncated before each test, dropped after. The handle is
 * filled in by that hook, and hooks the block registers after this call see it created.
 * At a file's top level use `await fileDatabase()`: there node:test starts `before` hooks as they
 * are registered, side by side, so a file's own hook would not wait for this one.
 */
export function testDatabase(opts: TestDatabaseOptions = {}): TestDatabaseHandle {
  const handle = lifecycle(opts)
  before(async () => {
    Object.assign(handle, await make(opts))
  })
  return handle
}

/** testDatabase() for a file's top level: the database is made while the module loads, before any hook runs. */
export async function fileDatabase(opts: TestDatabaseOptions = {}): Promise<TestDatabaseHandle> {
  const handle = lifecycle(opts)
  Object.assign(handle, await make(opts))
  return handle
}

const make = (opts: TestDatabaseOptions) => (opts.empty ? createEmptyDatabase() : createTestDatabase())

/** The hooks both share: `emptied` truncated before each test; beforeDrop()'s teardown, then the drop, after. */
function lifecycle(opts: TestDatabaseOptions): TestDatabaseHandle {
  const teardowns: (() => unknown)[] = []
  const handle = {
    beforeDrop(fn: () => unknown) {
      teardowns.push(fn)
    },
  } as TestDatabaseHandle
  if (opts.emptied?.length) {
    const tables = opts.emptied.join(', ')
    beforeEach(async () => {
      await handle.pool.query(`TRUNCATE ${tables}`)
    })
  }
  after(async () => {
    try {
      for (const fn of teardowns.reverse()) await fn()
    } finally {
      await (handle as Partial<TestDatabase>).drop?.()
    }
  })
  return handle
}

/** What freshDatabases() returns: call it for a new database; beforeDrop() as testDatabase()'s. */
export interface FreshDatabases {
  (): Promise<TestDatabase>
  beforeDrop(fn: () => unknown): void
}

/**
 * For files whose tests each need a database of their own (install, upgrade): the function
 * returned makes one per call, and every one made is dropped after the file (or describe block).
 */
export function freshDatabases(opts: { empty?: boolean } = {}): FreshDatabases {
  const made: TestDatabase[] = []
  const teardowns: (() => unknown)[] = []
  after(async () => {
    try {
      for (const fn of teardowns.reverse()) await fn()
    } finally {
      for (const db of made) await db.drop()
    }
  })
  const fresh = async () => {
    const db = opts.empty ? await createEmptyDatabase() : await createTestDatabase()
    made.push(db)
    return db
  }
  return Object.assign(fresh, { beforeDrop: (fn: () => unknown) => void teardowns.push(fn) })
}
