/** What a Worker is built from, and what a service plugged into it answers. */
import type pg from 'pg'
import type { WorkerEvents } from '../events.js'
import type { JobRegistry } from '../jobs/registry.js'
import type { Settings } from '../settings.js'

export interface WorkerService {
  start(): Promise<void> | void
  stop(): Promise<void>
}

export type WorkerSettings = Settings

export interface WorkerOptions {
  /** The queue's own round trips: pick, outcomes, heartbeat, pauses (a pool with the round-trip deadline). */
  pool: pg.Pool
  /** What handlers get in their run context; default `pool`. */
  workPool?: pg.Pool
  registry: JobRegistry
  settings: WorkerSettings
  events?: WorkerEvents
  /** Only these entrypoints (each must have a handler); default every registered job. */
  entrypoints?: string[]
  batchSize: number
  concurrency: number
  /**
   * Picked jobs that may wait in the local queue for a handler slot, so a pick takes a whole
   * batch whatever the concurrency (default: the batch size; 0 ties each pick to the free slots).
   */
  localQueueSize?: number
  services?: WorkerService[]
  /** The LISTEN connection; default the one a pool from `openDatabase` names; false: poll only. */
  listen?: pg.ClientConfig | false
}
