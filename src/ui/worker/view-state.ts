/** The shape of what the live worker view draws: a plain snapshot of the view store. */
import type { WorkerEventMap } from '../../events.js'

/** `canceling`: an operator asked to cancel it and its handler's signal fired; it still runs until the handler returns. */
export type PickOutcome = 'running' | 'canceling' | 'completed' | 'retried' | 'held' | 'released' | 'canceled'

export interface RecentPick {
  at: number
  jobId: string
  entrypoint: string
  priority: number
  attempts: number
  waitMs: number
  scopes?: string[]
  outcome: PickOutcome
  durationMs?: number
}

export interface RecentHold {
  at: number
  jobId: string
  entrypoint: string
  attempts: number
  durationMs: number
  error: string
  scopes?: string[]
}

export interface EntrypointRow {
  entrypoint: string
  inFlight: number
  /** 0 = unbounded. */
  limit: number
  picked: number
  completed: number
  retried: number
  held: number
  /** Paused with `aizk pause`: this worker picks none of its jobs until it is resumed. */
  paused: boolean
}

export interface Totals {
  picked: number
  completed: number
  retried: number
  held: number
  canceled: number
  released: number
  recovered: number
  batches: number
}

export interface ScheduleRow {
  name: string
  cronEntrypoint: string
  nextRun?: string
  lastFiredAt?: string
  lastEnqueued?: number
}

export interface WorkerViewState {
  now: number
  startedAt: number
  phase: 'starting' | 'waiting' | 'running' | 'draining' | 'stopped'
  worker?: WorkerEventMap['worker:started']
  /** connecting until the worker has its database; ok, or lost since `since`. */
  db: { state: 'connecting' | 'ok' | 'lost'; since: number; lastError?: string }
  lastError?: { at: number; where: string; error: string }
  totals: Totals
  /** Jobs per second over the last few seconds. */
  rates: { picked: number; completed: number; failed: number }
  inFlight: number
  entrypoints: EntrypointRow[]
  picks: RecentPick[]
  holds: RecentHold[]
  schedules: ScheduleRow[]
  /** The command's own lines (the embedded server started, where its data is, how to stop it), shown above the view. */
  notes: string[]
}
