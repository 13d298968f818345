/**
 * The LISTEN connection: a dedicated client on ch_pgqueuer (and aizk_control, for pause changes)
 * that reconnects with backoff after a dropped link. A link can also go silent without closing
 * (a stalled network): then no notification arrives and nothing says so. So every `checkMs` it
 * proves itself with a round trip under the deadline, and one that fails is replaced. NOTIFY is
 * only a hint: notifications sent while the link was down are lost, so every (re)connect reports
 * itself and the worker polls again (the poll covers the gap meanwhile).
 */

import { DeadlineClient, type DeadlineClientConfig } from '../db/deadline-client.js'
import { cancellationIds } from './cancel-request.js'
import { NOTIFY_CHANNEL } from './notify.js'
import { CONTROL_CHANNEL } from './pause.js'

const LISTEN_JOBS = `LISTEN ${NOTIFY_CHANNEL}`
const LISTEN_CONTROL = `LISTEN ${CONTROL_CHANNEL}`

export interface ControlEvent {
  type: 'entrypoint_paused' | 'entrypoint_resumed'
  entrypoint: string
}

export interface ListenerHooks {
  /** A notification: `freed` when rows left the table (a completion), else new or requeued work. */
  onWake(kind: 'work' | 'freed'): void
  /** Connected; `reconnect` after a drop (the caller re-polls). */
  onConnected(info: { reconnect: boolean; downMs: number }): void
  onLost(error: string): void
  /** PgQueuer's `cancellation_event`: running jobs an operator asked to cancel. */
  onCancel?(ids: string[]): void
  /** A pause change on aizk_control (listened to only when this hook is given). */
  onControl?(event: ControlEvent): void
}

export class QueueListener {
  private client: DeadlineClient | undefined
  private stopped = false
  private timer: NodeJS.Timeout | undefined
  private checkTimer: NodeJS.Timeout | undefined
  private checking = false
  private lostAt = 0
  private everConnected = false
  private delayMs = 100

  constructor(
    private readonly config: DeadlineClientConfig,
    /** How often the link proves itself; its round trips' deadline when the config has none. */
    private readonly checkMs: number,
    private readonly hooks: ListenerHooks,
  ) {}

  private get deadlineMs(): number {
    return this.config.deadlineMs || this.checkMs
  }

  /** Resolves after the first successful LISTEN, or rejects with its error. */
  async start(): Promise<void> {
    await this.connect()
  }

  private async connect(): Promise<void> {
    const client = new DeadlineClient({
      ...this.config,
      application_name: 'aizk-listen',
      keepAlive: true,
      deadlineMs: this.deadlineMs,
      connectionTimeoutMillis: this.config.connectionTimeoutMillis || this.deadlineMs,
    })
    client.on('notification', (msg) => {
      const payload = msg.payload ?? ''
      if (msg.channel === CONTROL_CHANNEL) {
        const event = parseControl(payload)
        if (event) this.hooks.onControl?.(event)
        return
      }
      if (msg.channel !== NOTIFY_CHANNEL) return
      const cancel = cancellationIds(payload)
      if (cancel) {
        this.hooks.onCancel?.(cancel)
        return
      }
      const freed = payload.includes('"operation" : "delete"') || payload.includes('"operation":"delete"')
      this.hooks.onWake(freed ? 'freed' : 'work')
    })
    client.on('error', (err) => this.dropped(client, err))
    client.on('end', () => this.dropped(client, new Error('connection ended')))
    try {
      await client.connect()
      await client.query(LISTEN_JOBS)
      if (this.hooks.onControl) await client.query(LISTEN_CONTROL)
    } catch (err) {
      client.destroy()
      throw err
    }
    if (this.stopped) {
      client.destroy()
      return
    }
    this.client = client
    this.delayMs = 100
    this.startChecks(client)
    const reconnect = this.everConnected
    this.everConnected = true
    this.hooks.onConnected({ reconnect, downMs: reconnect ? Date.now() - this.lostAt : 0 })
  }

  /** A round trip every checkMs; one past its deadline destroys the socket, and 'error' or the failure replaces it. */
  private startChecks(client: DeadlineClient): void {
    clearInterval(this.checkTimer)
    this.checkTimer = setInterval(() => {
      if (this.client !== client || this.checking) return
      this.checking = true
      client
        .query('SELECT 1')
        .catch((err: Error) => this.dropped(client, err))
        .finally(() => {
          this.checking = false
        })
    }, this.checkMs)
  }

  private dropped(client: DeadlineClient, err: Error): void {
    if (this.client !== client || this.stopped) return
    this.client = undefined
    clearInterval(this.checkTimer)
    this.lostAt = Date.now()
    // No goodbye: on a silent link it would wait forever.
    client.destroy()
    this.hooks.onLost(err.message)
    this.schedule()
  }

  private schedule(): void {
    if (this.stopped || this.timer) return
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.connect().catch(() => {
        this.delayMs = Math.min(5000, this.delayMs * 2)
        this.schedule()
      })
    }, this.delayMs)
  }

  /**
   * Replace a working link by a new connection, without reporting a loss: after a server refused
   * writes, the one this link reached may no longer be the primary, and a NOTIFY sent on the new
   * primary would never reach it (docs/running-the-worker.md#read-only-servers).
   */
  renew(): void {
    const client = this.client
    if (!client || this.stopped) return
    this.client = undefined
    clearInterval(this.checkTimer)
    this.lostAt = Date.now()
    client.destroy()
    this.schedule()
  }

  /** Close the link: a goodbye within the deadline, else the socket is destroyed. */
  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    clearInterval(this.checkTimer)
    const client = this.client
    this.client = undefined
    if (!client) return
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.deadlineMs)
    })
    await Promise.race([client.end().catch(() => {}), late])
    clearTimeout(timer)
    client.destroy()
  }
}

function parseControl(payload: string): ControlEvent | null {
  try {
    const e = JSON.parse(payload) as Partial<ControlEvent>
    if ((e.type === 'entrypoint_paused' || e.type === 'entrypoint_resumed') && typeof e.entrypoint === 'string') {
      return { type: e.type, entrypoint: e.entrypoint }
    }
  } catch {
    // Not ours: ignore.
  }
  return null
}
