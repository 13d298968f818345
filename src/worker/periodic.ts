/**
 * A worker's background pass on a timer: never two runs at once, errors reported at `where`
 * (a 'worker:error', or 'db:lost' for a connection fault: WorkerEvents.reportError), and a timer
 * that does not keep the process alive.
 */
import type { WorkerEvents } from '../events.js'

export interface Periodic {
  /** Start the timer; `now` also runs a first pass at once (not awaited). */
  start(opts?: { now?: boolean }): void
  /** Stop the timer; resolves when a pass still running has ended. */
  stop(): Promise<void>
}

export function periodic(ms: number, pass: () => Promise<unknown>, events: WorkerEvents, where: string): Periodic {
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined
  const run = () => {
    if (running) return
    running = pass()
      .then(() => {})
      .catch((err) => events.reportError(where, err))
      .finally(() => {
        running = undefined
      })
  }
  return {
    start(opts = {}) {
      timer = setInterval(run, ms)
      timer.unref()
      if (opts.now) run()
    },
    stop() {
      if (timer) clearInterval(timer)
      timer = undefined
      return running ?? Promise.resolve()
    },
  }
}
