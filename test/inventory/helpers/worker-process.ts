/** A real `aizk worker` with JSON lines, for the pipeline's end-to-end tests (the one spawn helper underneath). */
import { spawnWorker, type WorkerEvent, type WorkerProcess as Spawned } from '../../helpers/worker-process.js'

export type WorkerProcess = Spawned & { lines: WorkerEvent[] }

export function startWorker(env: Record<string, string>): WorkerProcess {
  const worker = spawnWorker({ AIZK_WORKER_OUTPUT: 'json', ...env })
  return Object.assign(worker, { lines: worker.events })
}
