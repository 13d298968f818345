/**
 * Folds the live-count deltas and the per-second throughput rows while a worker runs, so those
 * tables stay small whether or not anybody watches `aizk status`. Many workers may run it: a
 * try-lock makes all but one skip each pass. Once per heartbeat timeout it also removes the rows
 * of dead workers (removeDeadWorkers): a DELETE any number of workers may run at once.
 */
import type pg from 'pg'
import { removeDeadWorkers } from '../db/sql/aizk-worker.js'
import type { WorkerEvents } from '../events.js'
import { compactCounts, compactThroughput } from '../queue/counts.js'
import { periodic } from './periodic.js'
import type { WorkerService } from './worker-options.js'

const COUNTS_EVERY_MS = 10_000
const THROUGHPUT_EVERY_MS = 15_000

export function countMaintenanceService(pool: pg.Pool, events: WorkerEvents, heartbeatTimeoutSeconds: number): WorkerService {
  const passes = [
    periodic(COUNTS_EVERY_MS, () => compactCounts(pool), events, 'compact-counts'),
    periodic(THROUGHPUT_EVERY_MS, () => compactThroughput(pool), events, 'compact-throughput'),
    periodic(Math.max(1000, heartbeatTimeoutSeconds * 1000), () => removeDeadWorkers(pool), events, 'dead-workers'),
  ]
  return {
    start() {
      for (const p of passes) p.start()
    },
    async stop() {
      // A compaction still running finishes on its own; the shutdown does not wait for it.
      for (const p of passes) void p.stop()
    },
  }
}
