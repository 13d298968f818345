/**
 * The pool aizk opens (createPool, openDatabase): a pg.Pool that carries, as typed fields, what
 * the rest of aizk needs to know about the connections it hands out. Each consumer reads these
 * fields; a plain pg.Pool of an application's own has none of them, and each consumer says what
 * it does then (docs/architecture.md#the-pools): the scope module refuses it when the settings
 * name an app login, enqueue writes parity rows only when asked, the worker needs `listen`.
 */
import pg from 'pg'
import { CallTracker, DeadlineClient, type DeadlineClientConfig } from './deadline-client.js'

export interface DatabasePoolConfig {
  client: DeadlineClientConfig
  max: number
  idleTimeoutMillis: number
  /** Scoped transactions asked of this pool run on this one instead (AIZK_APP_DATABASE_URL). */
  appLogin?: DatabasePool
  /** Where this pool's LISTEN connection goes; false: nowhere, poll only (behind a transaction pooler). */
  listen?: DeadlineClientConfig | false
}

export class DatabasePool extends pg.Pool {
  /** What each client connects with (for a client of its own: the worker's LISTEN connection). */
  readonly clientConfig: DeadlineClientConfig
  /** The round trips on their way (health reads their age). */
  readonly calls: CallTracker
  /** The clients open now, so closing can destroy the ones that never say goodbye. */
  readonly clients = new Set<DeadlineClient>()
  /**
   * The app role's own login (AIZK_APP_DATABASE_URL), a login that cannot become the owner: the
   * scope module runs scoped transactions there. Undefined: on this login under SET LOCAL ROLE.
   */
  readonly appLogin: DatabasePool | undefined
  /** What the LISTEN connection connects with: the pool's own server by default; false: poll only. */
  readonly listen: DeadlineClientConfig | false

  constructor(config: DatabasePoolConfig) {
    const calls = config.client.calls ?? new CallTracker()
    const clientConfig = { ...config.client, calls }
    super({ ...clientConfig, Client: DeadlineClient as unknown as typeof pg.Client, max: config.max, idleTimeoutMillis: config.idleTimeoutMillis })
    this.clientConfig = clientConfig
    this.calls = calls
    this.appLogin = config.appLogin
    this.listen = config.listen === undefined ? clientConfig : config.listen === false ? false : { ...config.listen, calls }
    this.on('error', () => {
      // An idle client lost its connection (server restart); the pool replaces it on next use.
    })
    this.on('connect', (client) => {
      this.clients.add(client as unknown as DeadlineClient)
      // A checked-out client whose connection drops between queries emits 'error'; unheard, that
      // would end the process. The failure reaches its holder through the next query instead.
      client.on('error', () => {})
    })
    this.on('remove', (client) => this.clients.delete(client as unknown as DeadlineClient))
  }

  /**
   * pg-pool's checkout, with a release that closes a client whose server refused a write as
   * read-only (DeadlineClient.writeRefused), however its holder released it: after a switchover
   * the next connection may reach the new primary, this one never will. pool.query checks out
   * through here too.
   */
  override connect(): Promise<pg.PoolClient>
  override connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void
  override connect(
    callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): Promise<pg.PoolClient> | undefined {
    if (!callback) return super.connect().then(discardWhenReadOnly)
    super.connect((err, client, done) => {
      if (!client) return callback(err, client, done)
      const guarded = discardWhenReadOnly(client)
      callback(err, guarded, guarded.release as (release?: unknown) => void)
    })
    return undefined
  }

  /** The server this pool connects to (pg_dump is handed the same). */
  get url(): string {
    return this.clientConfig.connectionString ?? ''
  }

  /** Whether this pool's connections write PgQueuer's `queued` and `picked` log rows (AIZK_QUEUE_LOG_PARITY). */
  get logParity(): boolean {
    return this.clientConfig.logParity === true
  }
}

function discardWhenReadOnly(client: pg.PoolClient): pg.PoolClient {
  const release = client.release
  client.release = (err?: Error | boolean) => release.call(client, err || (client as unknown as DeadlineClient).writeRefused)
  return client
}
