/**
 * The heartbeat: one statement per interval for the worker's row and every pick it holds; it
 * also brings cancels and pauses whose NOTIFY was lost, and says when the row was removed as dead.
 */
import type pg from 'pg'
import { OVERDUE_SLACK_MS } from '../db/deadline-client.js'
import { type HeartbeatResult, heartbeat } from '../db/sql/aizk-worker.js'
import type { DatabaseHealth } from './db-health.js'

export interface HeartbeatParts {
  pool: pg.Pool
  queueManagerId: string
  health: DatabaseHealth
  /** The rows the worker holds, split by age (held-jobs.ts). */
  held: () => { stale: string[]; fresh: string[] }
  /** Handlers' statements nothing is ending, `slackMs` past their deadline (the row's `stuck_calls`). */
  stuckCalls: (slackMs: number) => number
  /** What a beat brought back is acted on; a promise (registering again) is waited for. */
  onBeat: (beat: HeartbeatResult) => Promise<void> | undefined
}

export class Heartbeat {
  private timer: NodeJS.Timeout | undefined
  private beating = false

  constructor(private readonly p: HeartbeatParts) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => this.beat(), intervalMs)
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
  }

  private beat(): void {
    // One beat at a time: on a silent network the next waits for this one's deadline.
    if (this.beating) return
    this.beating = true
    const { pool, queueManagerId, health } = this.p
    const { stale, fresh } = this.p.held()
    heartbeat(pool, queueManagerId, stale, fresh, this.p.stuckCalls(OVERDUE_SLACK_MS))
      .then(
        (beat) => {
          // The heartbeat is a write: it ends a read-only outage even while every slot is busy and nothing picks.
          if (health.writesRefused) health.recovered()
          return this.p.onBeat(beat)
        },
        (err) => health.error('heartbeat', err),
      )
      .catch((err) => health.error('register', err))
      .finally(() => {
        this.beating = false
      })
  }
}
