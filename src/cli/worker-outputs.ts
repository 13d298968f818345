/**
 * How `aizk worker` shows what it does: the live ink view on a terminal, JSON lines elsewhere
 * (AIZK_WORKER_OUTPUT forces one). Both listen to the worker's events from the moment this is
 * has resolved until `close()`, which the command calls after the worker has stopped, so the drain and
 * 'worker:stopped' are shown too. Lives with the CLI, not in src/worker: it imports ink.
 */

import type { WorkerEvents } from '../events.js'
import { concurrencyLimitOf } from '../jobs/queue-job.js'
import { jobRegistry } from '../jobs/registry.js'
import type { NumberSettingKey, Settings } from '../settings.js'
import { attachJsonLines } from '../worker/log-lines.js'
import { canDrawLive } from './terminal.js'

export interface WorkerOutputsOptions {
  events: WorkerEvents
  settings: Pick<Settings, 'workerOutput' | 'workerLogJobs'> & Partial<Pick<Settings, NumberSettingKey>>
  stdout?: NodeJS.WriteStream
  /** Default: stdout is a terminal and no CI variable is set (canDrawLive). */
  isTTY?: boolean
  /** Concurrency limit per entrypoint for the view. Default: the job registry's declarations. */
  limitOf?: (entrypoint: string) => number
  /** At most this many frames per second of the view. Default 1. */
  fps?: number
}

export interface WorkerOutputs {
  mode: 'view' | 'json'
  /** Draw the last frame (or flush the last lines) and stop listening. */
  close(): Promise<void>
  /**
   * A line of the command's (the embedded server's start and how to stop it): in the view's
   * header on a terminal, where a line on stderr would be drawn over; on stderr otherwise.
   */
  note(line: string): void
}

export async function attachWorkerOutputs(opts: WorkerOutputsOptions): Promise<WorkerOutputs> {
  const { events, settings } = opts
  const stdout = opts.stdout ?? process.stdout
  const tty = opts.isTTY ?? canDrawLive(stdout)
  const mode = settings.workerOutput === 'auto' || settings.workerOutput === undefined ? (tty ? 'view' : 'json') : settings.workerOutput
  if (mode === 'view') {
    const limitOf =
      opts.limitOf ??
      ((ep: string) => {
        const job = jobRegistry.get(ep)
        return job ? concurrencyLimitOf(job, settings) : 0
      })
    // ink and react load only when the view is drawn: JSON lines never pay for them. React's
    // development build costs several times the production one per frame: use the latter
    // unless NODE_ENV asks otherwise (it is read once, when react first loads).
    process.env.NODE_ENV ??= 'production'
    const { createWorkerViewService } = await import('../ui/worker/worker-view-service.js')
    const view = createWorkerViewService({ events, stdout, limitOf, fps: opts.fps })
    void view.start()
    return { mode, close: () => view.stop(), note: (line) => view.note(line) }
  }
  const lines = attachJsonLines(events, { write: (chunk) => stdout.write(chunk), jobs: settings.workerLogJobs !== false })
  return { mode, close: async () => lines.detach(), note: (line) => process.stderr.write(`${line}\n`) }
}
