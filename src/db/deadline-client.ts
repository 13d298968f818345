/**
 * A pg client whose every round trip has a deadline. A peer that goes silent (a stalled
 * network: no RST, no FIN) would otherwise leave a query waiting for its reply forever. Past the
 * deadline the socket is destroyed: the query, and anything queued behind it on that
 * connection, fails with a DeadlineError (a connection error, so the worker counts an outage,
 * and a command exits 4), and the pool drops the client instead of handing it out again.
 * node-postgres's own `query_timeout` only rejects the query and leaves the connection waiting
 * for the lost reply. Every client also turns on TCP keepalive (docs/job-lifecycle.md#network-stalls).
 * A client checked out through withStatementDeadline's view (statement-deadline.ts) has that one instead.
 * A client whose server refused a write because it is read-only or in recovery keeps that error
 * (`writeRefused`): its pool closes it on release instead of handing it out again (database-pool.ts).
 */
import pg from 'pg'
import { isWriteRefused } from './read-only.js'

/** The code of a round trip that passed its deadline (a connection error: see isConnectionError). */
export const DEADLINE_CODE = 'AIZK_DEADLINE'

export class DeadlineError extends Error {
  readonly code = DEADLINE_CODE
  constructor(ms: number, why = 'no reply from PostgreSQL') {
    super(`${why} within ${ms} ms: the connection was closed (a network stall?)`)
  }
}

/** A call's deadline fires on a timer: allow for a busy event loop before calling it overdue. */
export const OVERDUE_SLACK_MS = 1000

/** Round trips of one pool's clients that are on their way, for health's "a call older than its deadline". */
export class CallTracker {
  private readonly started = new Map<number, number>()
  /** The deadline of each call on its way, when it has one. */
  private readonly deadlines = new Map<number, number>()
  /** Calls without a deadline (a handler's statement that said "none"), by start. */
  private readonly open = new Map<number, number>()
  private next = 0

  begin(deadlineMs = 0): number {
    const id = this.next++
    if (deadlineMs > 0) {
      this.started.set(id, Date.now())
      this.deadlines.set(id, deadlineMs)
    } else {
      this.open.set(id, Date.now())
    }
    return id
  }

  end(id: number): void {
    this.started.delete(id)
    this.deadlines.delete(id)
    this.open.delete(id)
  }

  /**
   * Calls still on their way `slackMs` past their own deadline: the deadline should have ended
   * them, so each holds a connection nothing is ending (health's "stuck"). With `openMs`, a call
   * without a deadline counts too once older than it (the job timeout: its job was ended, its
   * connection is still held).
   */
  overdue(slackMs: number, openMs = 0): number {
    const now = Date.now()
    let n = 0
    for (const [id, deadlineMs] of this.deadlines) if (now - (this.started.get(id) ?? now) > deadlineMs + slackMs) n++
    if (openMs > 0) for (const at of this.open.values()) if (now - at > openMs + slackMs) n++
    return n
  }

  /** Age (ms) of the oldest call with a deadline on its way, 0 when none. */
  oldestAgeMs(): number {
    let oldest = Number.POSITIVE_INFINITY
    for (const at of this.started.values()) oldest = Math.min(oldest, at)
    return oldest === Number.POSITIVE_INFINITY ? 0 : Date.now() - oldest
  }

  /** Calls on their way, with a deadline or without. */
  get size(): number {
    return this.started.size + this.open.size
  }
}

export interface DeadlineClientConfig extends pg.ClientConfig {
  /** The deadline of each round trip in ms; 0 or absent: none (keepalive only). */
  deadlineMs?: number
  calls?: CallTracker
  /** Whether this connection writes PgQueuer's `queued` and `picked` log rows (AIZK_QUEUE_LOG_PARITY). */
  logParity?: boolean
  /**
   * False behind a transaction pooler: a query's `name` is dropped, so it is parsed unnamed in its
   * own round trip; a named statement prepared on one server connection would be missing on the next.
   */
  namedStatements?: boolean
}

type Callback = (err: Error | null, res?: unknown) => void

export class DeadlineClient extends pg.Client {
  private readonly deadlineMs: number
  private readonly calls: CallTracker | undefined
  readonly logParity: boolean
  private readonly unnamed: boolean
  /** The deadline of this checkout's statements when its holder asked for another (statement-deadline.ts). */
  deadlineOverrideMs: number | undefined
  private waiting = 0
  private waitingFrom = 0
  /** The server's reported parameters (ParameterStatus), as of its last report: read-only.ts reads them. */
  readonly reported = new Map<string, string>()
  /** The first refusal of a write by a read-only server on this connection; set, the connection is not reused. */
  writeRefused: Error | undefined

  constructor(config: DeadlineClientConfig) {
    super(config)
    this.deadlineMs = config.deadlineMs ?? 0
    this.calls = config.calls
    this.logParity = config.logParity === true
    this.unnamed = config.namedStatements === false
    const connection = (this as unknown as { connection: NodeJS.EventEmitter }).connection
    connection.on('parameterStatus', (msg: { parameterName: string; parameterValue: string }) => this.reported.set(msg.parameterName, msg.parameterValue))
  }

  private noteFailure(err: unknown): void {
    if (!this.writeRefused && isWriteRefused(err)) this.writeRefused = err as Error
  }

  /** How long this client has waited for a reply under a deadline, 0 when it waits for none (lost-statements.ts). */
  get waitingMs(): number {
    return this.waiting > 0 ? Date.now() - this.waitingFrom : 0
  }

  /** The server process of this connection, once connected (pg_stat_activity's pid). */
  get backendPid(): number | undefined {
    return (this as unknown as { processID?: number | null }).processID ?? undefined
  }

  /** Close the socket at once: no goodbye to a peer that may never answer. */
  destroy(err?: Error): void {
    const stream = (this as unknown as { connection?: { stream?: { destroy(err?: Error): void } } }).connection?.stream
    stream?.destroy(err)
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this wraps them all.
  override query(config: any, values?: any, callback?: any): any {
    if (this.unnamed && config?.name !== undefined && typeof config.submit !== 'function') config = { ...config, name: undefined }
    // Cursors and streams (objects with submit) keep a portal open across round trips: not bounded here.
    // A handler that said its statements may run long (statement-deadline.ts) gets its deadline.
    const deadlineMs = this.deadlineOverrideMs ?? this.deadlineMs
    if (config && typeof config.submit === 'function') return super.query(config, values, callback)
    // A call without a deadline is still counted: health calls it stuck past the job timeout.
    const call = this.calls?.begin(deadlineMs)
    const timer = deadlineMs ? setTimeout(() => this.destroy(new DeadlineError(deadlineMs)), deadlineMs) : undefined
    if (deadlineMs && this.waiting++ === 0) this.waitingFrom = Date.now()
    const settle = () => {
      clearTimeout(timer)
      if (call !== undefined) this.calls?.end(call)
      // The next query queued on this connection starts its wait now.
      if (deadlineMs && --this.waiting > 0) this.waitingFrom = Date.now()
    }
    const cb: Callback | undefined = typeof values === 'function' ? values : callback
    if (cb) {
      const wrapped: Callback = (err, res) => {
        settle()
        if (err) this.noteFailure(err)
        cb(err, res)
      }
      return typeof values === 'function' ? super.query(config, wrapped) : super.query(config, values, wrapped)
    }
    return (super.query(config, values) as Promise<unknown>).then(
      (res) => {
        settle()
        return res
      },
      (err) => {
        settle()
        this.noteFailure(err)
        throw err
      },
    )
  }
}
