/**
 * Folds the live-count deltas and the per-second throughput rows while a worker runs, so those
 * tables stay small whether or not anybody watches `aizk status`. Many workers may run it: a
 * try-lock makes all but one skip each pass.
 */
import type pg from 'pg'
import { errorMessage } from '../errors.js'
import { compactCounts, compactThroughput } from '../queue/counts.js'
import type { WorkerEvents } from '../events.js'
import type { WorkerService } from './worker-options.js'

const COUNTS_EVERY_MS = 10_000
const THROUGHPUT_EVERY_MS = 15_000

export function countMaintenanceService(pool: pg.Pool, events: WorkerEvents): WorkerService {
  const timers: NodeJS.Timeout[] = []
  const every = (ms: number, pass: () => Promise<unknown>, where: string) => {
    let running = false
    const timer = setInterval(() => {
      if (running) return
      running = true
      pass()
        .catch((err) => events.emit('worker:error', { where, error: errorMessage(err) }))
        .finally(() => {
          running = false
        })
    }, ms)
    timer.unref()
    timers.push(timer)
  }
  return {
    start() {
      every(COUNTS_EVERY_MS, () => compactCounts(pool), 'compact-counts')
      every(THROUGHPUT_EVERY_MS, () => compactThroughput(pool), 'compact-throughput')
    },
    async stop() {
      for (const t of timers.splice(0)) clearInterval(t)
    },
  }
}
