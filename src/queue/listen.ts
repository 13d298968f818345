/**
 * The LISTEN connection: a dedicated client on ch_pgqueuer (and aizk_control, for pause changes)
 * that reconnects with backoff after a dropped link. NOTIFY is only a hint: notifications sent
 * while the link was down are lost, so every (re)connect reports itself and the worker polls
 * again.
 */
import pg from 'pg'
import { cancellationIds } from './cancel-request.js'
import { NOTIFY_CHANNEL } from './notify.js'
import { CONTROL_CHANNEL } from './pause.js'

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
  private client: pg.Client | undefined
  private stopped = false
  private timer: NodeJS.Timeout | undefined
  private lostAt = 0
  private everConnected = false
  private delayMs = 100

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly hooks: ListenerHooks,
  ) {}

  /** Resolves after the first successful LISTEN, or rejects with its error. */
  async start(): Promise<void> {
    await this.connect()
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ ...this.config, application_name: 'aizk-listen', keepAlive: true })
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
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`)
      if (this.hooks.onControl) await client.query(`LISTEN ${CONTROL_CHANNEL}`)
    } catch (err) {
      client.end().catch(() => {})
      throw err
    }
    if (this.stopped) {
      await client.end().catch(() => {})
      return
    }
    this.client = client
    this.delayMs = 100
    const reconnect = this.everConnected
    this.everConnected = true
    this.hooks.onConnected({ reconnect, downMs: reconnect ? Date.now() - this.lostAt : 0 })
  }

  private dropped(client: pg.Client, err: Error): void {
    if (this.client !== client || this.stopped) return
    this.client = undefined
    this.lostAt = Date.now()
    client.end().catch(() => {})
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

  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    const client = this.client
    this.client = undefined
    await client?.end().catch(() => {})
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
