/**
 * The worker's view of the database: up, or down since a moment. Whichever connection notices
 * first (a pick, a flush, the heartbeat, the LISTEN link, a background pass) reports it; an
 * outage is one 'db:lost' and one 'db:reconnected', however many queries failed in between.
 * A server that answers but refuses writes (a standby, a primary turned read-only) is an outage
 * too, marked `writesRefused` (docs/running-the-worker.md#read-only-servers). Errors that are not
 * about the connection are the worker's bugs to report ('worker:error').
 */
import { isConnectionError } from '../db/connect.js'
import { isWriteRefused } from '../db/read-only.js'
import { errorMessage } from '../errors.js'
import type { WorkerEvents } from '../events.js'

export interface DatabaseHealthHooks {
  /** Once per outage when it ends (the loop polls again: NOTIFYs were lost meanwhile); `writesRefused`: it was a read-only server. */
  recovered(writesRefused: boolean): void
  /** Once per outage, when it is (or turns out to be) a server refusing writes. */
  writesRefused?(): void
}

export class DatabaseHealth {
  private downSince = 0
  private refused = false
  private lastError = ''

  constructor(
    private readonly events: WorkerEvents,
    private readonly hooks: DatabaseHealthHooks,
  ) {}

  get down(): boolean {
    return this.downSince > 0
  }

  /** The current outage is a server refusing writes (read-only or in recovery). */
  get writesRefused(): boolean {
    return this.refused
  }

  /** What the current outage said when it began ('' while up): /readyz's detail. */
  get downError(): string {
    return this.downSince ? this.lastError : ''
  }

  /** A query failed: an outage when the link is gone or the server cannot write, else a 'worker:error' naming `where`. */
  error(where: string, err: unknown): void {
    if (isConnectionError(err)) this.lost(errorMessage(err), isWriteRefused(err))
    else this.events.emit('worker:error', { where, error: errorMessage(err) })
  }

  lost(message: string, writesRefused = false): void {
    if (!this.downSince) {
      this.downSince = Date.now()
      this.lastError = message
      this.events.emit('db:lost', { error: message, ...(writesRefused ? { readOnly: true } : {}) })
    }
    // A dropped link may be followed by a refused write (the server came back as a standby).
    if (writesRefused && !this.refused) {
      this.refused = true
      this.lastError = message
      this.hooks.writesRefused?.()
    }
  }

  recovered(): void {
    if (!this.downSince) return
    const downMs = Date.now() - this.downSince
    const refused = this.refused
    this.downSince = 0
    this.refused = false
    this.events.emit('db:reconnected', { downMs })
    this.hooks.recovered(refused)
  }
}
