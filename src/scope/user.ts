/**
 * Identity: the only module that sets the role and the scope settings on a transaction.
 * `User.system(scopes)` puts one exact set into both the read and the write side; both are
 * transaction-local (set_config(..., true)), so a pooled connection never carries one caller's
 * scopes into the next, and carry the owner's proof for exactly that transaction. `owner` is the one path past row security, and only the system user
 * with no other scope may open it (the roster is its one caller).
 */
import type pg from 'pg'
import { appLoginFor } from '../db/app-login.js'
import { boundaryRefusals } from '../db/boundary-refusals.js'
import { DatabasePool } from '../db/database-pool.js'
import { asScoped } from '../db/scoped-client.js'
import { batchTransaction, withTransaction } from '../db/sql/transaction.js'
import { AppLoginSettingsError, OwnerAccessError } from '../errors.js'
import type { Settings } from '../settings.js'
import { normalizeScopes, type ScopeSet, sameScopes, scopeArrayLiteral } from './scope-set.js'
import { appLoginBegin, BEGIN_READ_ONLY, type LoadedCheck, ownerBegin, SCOPE_PROOF, SET_SCOPES_WITH_PROOF } from './sql/user.js'

export { OwnerAccessError } from '../errors.js'

export type IdentitySettings = Pick<Settings, 'systemUserId' | 'appRole'> & Partial<Pick<Settings, 'appDatabaseUrl'>>

const ROLE = /^[a-z_][a-z0-9_]{0,62}$/

/**
 * Where the loaded settings of the app login's connections were read already (LoadedCheck):
 * client connections, each 1:1 with its server; behind a transaction pooler, server connections
 * by their backend key, per pool.
 */
const settingsRead = new WeakSet<object>()
const backendsRead = new WeakMap<object, Set<string>>()
/** Server connections remembered per pool before the set starts over (they come and go). */
const MAX_BACKENDS = 1000

function loadedCheck(app: pg.Pool, client: object): LoadedCheck {
  const sessionless = app instanceof DatabasePool && app.clientConfig.namedStatements === false
  if (!sessionless) return !settingsRead.has(client)
  const known = backendsRead.get(app)
  if (known && known.size <= MAX_BACKENDS) return [...known]
  backendsRead.set(app, new Set())
  return []
}

function settingsWereRead(app: pg.Pool, client: object, backend: string | undefined): void {
  if (backend === undefined) settingsRead.add(client)
  else backendsRead.get(app)?.add(backend)
}

type LoginBegin = { pid: number; started: string; login: string; login_settings: string | null; backend?: string }

export class User {
  private constructor(
    readonly read: ScopeSet,
    readonly write: ScopeSet,
    private readonly settings: IdentitySettings,
  ) {}

  /** The system user acting for exactly `scopes`; an empty set is the system's own private scope. */
  static system(scopes: Iterable<string>, settings: IdentitySettings): User {
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
   * Run `fn` in one transaction as the app role with this user's sets: BEGIN, role, sets and
   * their proof, fn, COMMIT; ROLLBACK when fn throws. Row security decides every row fn touches,
   * and honours the sets only with the owner's proof for this very transaction (docs/security.md).
   * With an app login carried by `pool` (AIZK_APP_DATABASE_URL) the transaction runs there, on
   * a login that cannot become the owner; otherwise on the owner login under SET LOCAL ROLE. A
   * pool without the app login the settings name is refused (db/app-login.ts).
   * `first`, a statement with no parameters (validated literals only), runs before fn in the
   * same round trip as the sets; fn gets its rows.
   */
  async transaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient, first: pg.QueryResultRow[]) => Promise<T>, first?: string): Promise<T> {
    const role = this.role()
    const app = appLoginFor(pool, this.settings)
    let rows: pg.QueryResultRow[] = []
    const body = (c: pg.PoolClient) => asScoped(c, (guarded) => fn(guarded, rows))
    if (!app) {
      // With `first`, its statement rides in the same round trip as the sets.
      const setup = this.ownerSetup(role) + (first ? `; ${first}` : '')
      return withTransaction(pool, body, async (c) => {
        const results = (await c.query(setup)) as unknown as pg.QueryResult[]
        if (first) rows = results[results.length - 1].rows
      })
    }
    // On the app login, the connection is wiped before it returns to the pool (withTransaction's
    // resetSession), and the temporary schema comes last in the path, so a table a tenant left
    // there cannot stand in for a real one. The owner path gets neither: there RESET ROLE already
    // reaches the owner (docs/security.md).
    return withTransaction(
      app,
      body,
      async (c) => {
        // The start time as ISO 8601 with microseconds: exact, whatever either session's DateStyle.
        const results = (await c.query(appLoginBegin(role, loadedCheck(app, c)))) as unknown as pg.QueryResult<LoginBegin>[]
        const { pid, started, login, login_settings, backend } = results[1].rows[0]
        if (login_settings !== null) {
          boundaryRefusals.loginSettings++
          throw new AppLoginSettingsError(login, login_settings)
        }
        settingsWereRead(app, c, backend)
        const read = scopeArrayLiteral(this.read)
        const write = scopeArrayLiteral(this.write)
        const { rows: proof } = await pool.query<{ proof: string }>(SCOPE_PROOF, [read, write, pid, started])
        await c.query(SET_SCOPES_WITH_PROOF, [read, write, proof[0].proof])
        if (first) rows = (await c.query(first)).rows
      },
      true,
    )
  }

  /**
   * One read statement in its own scoped transaction, in ONE round trip on the owner login: BEGIN,
   * the sets and their proof, `sql`, COMMIT. `sql` takes no parameters: every value in it must be a
   * validated literal (a UUID, a scope array literal).
   */
  async readOnce<R extends pg.QueryResultRow>(pool: pg.Pool, sql: string): Promise<R[]> {
    if (appLoginFor(pool, this.settings)) return this.transaction(pool, async (c) => (await c.query<R>(sql)).rows)
    const results = await batchTransaction<R>(pool, `${this.ownerSetup(this.role())}; ${sql}; COMMIT`)
    return results[results.length - 2].rows
  }

  private role(): string {
    const role = this.settings.appRole
    if (!ROLE.test(role)) throw new OwnerAccessError(`app role "${role}" is not a plain role name`)
    return role
  }

  /** One round trip; every value here is a validated role name or a validated UUID list. The proof is computed while still the owner, then the role drops to the app role. */
  private ownerSetup(role: string): string {
    return ownerBegin(role, scopeArrayLiteral(this.read), scopeArrayLiteral(this.write))
  }

  /** The owner connection (row security off), read-only. Refused unless this is the system user. */
  async owner<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    if (!this.isSystemOwner) {
      throw new OwnerAccessError(
        `the owner connection is for the system user alone; refused for scopes {${this.read.join(',')}}`,
        'run scoped work inside User.system(scopes).transaction(...)',
      )
    }
    return withTransaction(pool, fn, BEGIN_READ_ONLY)
  }
}
