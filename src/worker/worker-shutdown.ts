/**
 * A worker's shutdown. Running jobs get `timeoutMs`; the last writes (outcomes, releases,
 * deregistering, closing LISTEN) get `shutdownFinishMs` more, each step cut off there however its
 * connection behaves, so the worker always stops. What could not be written is said
 * ('worker:error') and stays picked, to be picked again after the heartbeat timeout.
 */
import type pg from 'pg'
import { deregisterWorker } from '../db/sql/aizk-worker.js'
import type { WorkerEvents } from '../events.js'
import type { QueueListener } from '../queue/listen.js'
import type { DatabaseHealth } from './db-health.js'
import type { Executor } from './executor.js'
import type { OutcomeBuffer } from './outcomes.js'
import type { PickLoop } from './pick-loop.js'
import type { Heartbeat } from './worker-heartbeat.js'
import type { WorkerService, WorkerSettings } from './worker-options.js'

export interface ShutdownParts {
  pool: pg.Pool
  queueManagerId: string
  settings: Pick<WorkerSettings, 'dbDeadlineSeconds'>
  events: WorkerEvents
  health: DatabaseHealth
  executor: Executor | undefined
  outcomes: OutcomeBuffer | undefined
  picker: PickLoop | undefined
  /** The services started, stopped in reverse order once picking has stopped (the list is emptied). */
  services: WorkerService[]
  /** Read at the end: a start still on its way may set it meanwhile. */
  listener: () => QueueListener | undefined
  heartbeat: Heartbeat
}

/** How long a stopping worker's last writes may take past the shutdown timeout: 5 s, or the database deadline if shorter. */
export function shutdownFinishMs(settings: Pick<WorkerSettings, 'dbDeadlineSeconds'>): number {
  return Math.min(5000, Math.round((settings.dbDeadlineSeconds ?? 15) * 1000))
}

/** Stop picking, drain within `timeoutMs`, release what is still running, write the rest, deregister. */
export async function shutDown(parts: ShutdownParts, timeoutMs: number, reason: string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  const end = deadline + shutdownFinishMs(parts.settings)
  const { executor, outcomes, picker, events, health } = parts
  events.emit('worker:stopping', { reason, inFlight: executor?.size ?? 0 })
  await until(end, picker?.stop())
  // Waiting jobs never started: back to `queued` at once, not after the drain.
  const notStarted = picker?.takeWaiting() ?? []
  if (notStarted.length) executor?.releaseWaiting(notStarted)
  for (const service of parts.services.splice(0).reverse()) {
    await until(end, service.stop()).catch((err) => health.error('service', err))
  }
  const before = executor?.finishedCount ?? 0
  while (picker && executor && executor.size > 0 && Date.now() < deadline) {
    await picker.waitForSlot(Math.min(100, Math.max(1, deadline - Date.now())))
  }
  const completedInTime = (executor?.finishedCount ?? 0) - before
  const released = executor?.releaseAll() ?? 0
  executor?.close()
  parts.heartbeat.stop()
  const unwritten = outcomes ? await writeLastOutcomes(outcomes, events, end) : 0
  await until(end, deregisterWorker(parts.pool, parts.queueManagerId)).catch((err) => health.error('deregister', err))
  await until(end, parts.listener()?.stop())
  events.emit('worker:stopped', { released, completedInTime, ...(unwritten ? { unwritten } : {}) })
}

/** Write the outcomes and releases still buffered by `end`; returns how many could not be. */
async function writeLastOutcomes(outcomes: OutcomeBuffer, events: WorkerEvents, end: number): Promise<number> {
  let unwritten = 0
  // What is not written stays picked and is recovered after the heartbeat timeout.
  await outcomes.drain(end).catch(() => {
    const ids = outcomes.ids()
    unwritten = ids.length
    const named = `${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ', ...' : ''}`
    events.emit('worker:error', {
      where: 'shutdown',
      error: `${unwritten} job outcomes or releases could not be written before the shutdown deadline (is the database reachable?): jobs ${named} stay picked and run again after the heartbeat timeout`,
    })
  })
  // A released handler that finishes later must not start writes (and retry timers) on a
  // pool that is about to close: that kept stopped workers alive.
  outcomes.close()
  return unwritten
}

/** `promise`, or nothing once `end` (Date.now() ms) has passed: a step of the shutdown that may hang. */
function until<T>(end: number, promise: Promise<T> | undefined): Promise<T | undefined> {
  if (!promise) return Promise.resolve(undefined)
  let timer: NodeJS.Timeout | undefined
  const cut = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, end - Date.now()))
  })
  return Promise.race([promise, cut]).finally(() => clearTimeout(timer))
}
