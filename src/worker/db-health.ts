/**
 * The worker's view of the database: up, or down since a moment. Whichever connection notices
 * first (a pick, a flush, the heartbeat, the LISTEN link, a background pass) reports it; an
 * outage is one 'db:lost' and one 'db:reconnected', however many queries failed in between.
 * Errors that are not about the connection are the worker's bugs to report ('worker:error').
 */
import { isConnectionError } from '../db/connect.js'
import { errorMessage } from '../errors.js'
import type { WorkerEvents } from '../events.js'

export class DatabaseHealth {
  private downSince = 0

  constructor(
    private readonly events: WorkerEvents,
    /** Called once per outage when it ends (the loop polls again: NOTIFYs were lost meanwhile). */
    private readonly onRecovered: () => void,
  ) {}

  get down(): boolean {
    return this.downSince > 0
  }

  /** A query failed: an outage when the link is gone, else a 'worker:error' naming `where`. */
  error(where: string, err: unknown): void {
    if (isConnectionError(err)) this.lost(errorMessage(err))
    else this.events.emit('worker:error', { where, error: errorMessage(err) })
  }

  lost(message: string): void {
    if (this.downSince) return
    this.downSince = Date.now()
    this.events.emit('db:lost', { error: message })
  }

  recovered(): void {
    if (!this.downSince) return
    const downMs = Date.now() - this.downSince
    this.downSince = 0
    this.events.emit('db:reconnected', { downMs })
    this.onRecovered()
  }
}
