/** The parts a started worker runs: outcome batching, the executor, the pick loop, and the jobs they hold. */

import type { WorkerEvents } from '../events.js'
import type { JobClass } from '../jobs/queue-job.js'
import type { PickPlan } from '../queue/pick.js'
import { hasSlotColumn } from '../queue/retry.js'
import type { DatabaseHealth } from './db-health.js'
import { Executor } from './executor.js'
import { HeldJobs } from './held-jobs.js'
import { OutcomeBuffer } from './outcomes.js'
import { PickLoop } from './pick-loop.js'
import type { WorkerOptions } from './worker-options.js'

export interface WorkerParts {
  outcomes: OutcomeBuffer
  executor: Executor
  picker: PickLoop
  held: HeldJobs
}

export interface PartsContext {
  options: WorkerOptions
  queueManagerId: string
  events: WorkerEvents
  health: DatabaseHealth
  jobs: Map<string, JobClass>
  /** The current pick plan (it changes when an entrypoint is paused or resumed). */
  plan: () => PickPlan
  /** The worker stopped picking to shut down. */
  draining: () => boolean
  sizes: { batchSize: number; concurrency: number; localQueueSize: number }
}

export async function assembleParts(c: PartsContext): Promise<WorkerParts> {
  const { pool, settings } = c.options
  const { events, health, jobs } = c
  const onError = (where: string, err: unknown) => health.error(where, err)
  const outcomes = new OutcomeBuffer(
    pool,
    c.queueManagerId,
    { hasSlot: await hasSlotColumn(pool) },
    onError,
    () => health.recovered(),
    settings.completionFlushMs,
  )
  // While picks come back full, completions gather longer (outcomes.ts).
  outcomes.busy = () => picker.busy && !c.draining()
  outcomes.onWritten = (written) => events.emit('outcomes:written', written)
  const onSlotFree = (ranMs: number) => picker.slotFreed(ranMs)
  const executor = new Executor({ pool: c.options.workPool ?? pool, events, outcomes, settings, jobs, onSlotFree })
  const picker = new PickLoop({ pool, settings, events, health, jobs, plan: c.plan, ...c.sizes }, executor, outcomes)
  return { outcomes, executor, picker, held: new HeldJobs(executor, picker, outcomes) }
}
