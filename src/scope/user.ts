/**
 * Identity: the only module that sets the role and the scope settings on a transaction.
 * `User.system(scopes)` puts one exact set into both the read and the write side; both are
 * transaction-local (set_config(..., true)), so a pooled connection never carries one caller's
 * scopes into the next. `owner` is the one path past row security, and only the system user
 * with no other scope may open it (the roster is its one caller).
 */
import type pg from 'pg'
import { OwnerAccessError } from '../errors.js'
import { loadSettings, type Settings } from '../settings.js'
import { normalizeScopes, type ScopeSet, sameScopes, scopeArrayLiteral } from './scope-set.js'

export { OwnerAccessError } from '../errors.js'

export type IdentitySettings = Pick<Settings, 'systemUserId' | 'appRole'>

const ROLE = /^[a-z_][a-z0-9_]{0,62}$/

export class User {
  private constructor(
    readonly read: ScopeSet,
    readonly write: ScopeSet,
    private readonly settings: IdentitySettings,
  ) {}

  /** The system user acting for exactly `scopes`; an empty set is the system's own private scope. */
  static system(scopes: Iterable<string> = [], settings: IdentitySettings = loadSettings()): User {
    let set = normalizeScopes(scopes)
    if (set.length === 0) set = normalizeScopes([settings.systemUserId])
    return new User(Object.freeze(set), Object.freeze([...set]), settings)
  }

  /** True only for the bare system user: {systemUserId} on both sides, nothing else. */
  get isSystemOwner(): boolean {
    const own = normalizeScopes([this.settings.systemUserId])
    return sameScopes(this.read, own) && sameScopes(this.write, own)
  }

  /**
   * Run `fn` in one transaction as the app role with this user's sets: BEGIN, role, sets, fn,
   * COMMIT; ROLLBACK when fn throws. Row security decides every row fn touches.
   */
  async transaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const role = this.settings.appRole
    if (!ROLE.test(role)) throw new OwnerAccessError(`app role "${role}" is not a plain role name`)
    // One round trip; every value here is a validated role name or a validated UUID list.
    const setup =
      `BEGIN; SET LOCAL ROLE "${role}"; ` +
      `SELECT set_config('aizk.read_scopes', '${scopeArrayLiteral(this.read)}', true), ` +
      `set_config('aizk.write_scopes', '${scopeArrayLiteral(this.write)}', true)`
    return runInTransaction(pool, setup, fn)
  }

  /** The owner connection (row security off), read-only. Refused unless this is the system user. */
  async owner<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    if (!this.isSystemOwner) {
      throw new OwnerAccessError(
        `the owner connection is for the system user alone; refused for scopes {${this.read.join(',')}}`,
        'run scoped work inside User.system(scopes).transaction(...)',
      )
    }
    return runInTransaction(pool, 'BEGIN READ ONLY', fn)
  }
}

async function runInTransaction<T>(pool: pg.Pool, begin: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  let broken: Error | undefined
  try {
    await client.query(begin)
    const result = await fn(client)
    await client.query('COMMIT')
    return result
  } catch (err) {
    try {
      await client.query('ROLLBACK')
    } catch (rollbackErr) {
      // A connection that cannot roll back must not return to the pool with our role on it.
      broken = rollbackErr as Error
    }
    throw err
  } finally {
    client.release(broken)
  }
}
