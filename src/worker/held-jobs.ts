/**
 * The jobs a started worker holds: running (the executor), picked and waiting for a handler
 * slot (the pick loop's local queue), or finished with an outcome still to write (outcomes.ts).
 */
import type { PickedJob } from '../queue/pick.js'
import type { Executor } from './executor.js'
import type { OutcomeBuffer } from './outcomes.js'
import type { PickLoop } from './pick-loop.js'

export class HeldJobs {
  constructor(
    private readonly executor: Executor,
    private readonly picker: PickLoop,
    private readonly outcomes: OutcomeBuffer,
  ) {}

  /** Ids of the jobs running or waiting for a slot (those a cancel can reach). */
  started(): Set<string> {
    return new Set([...this.executor.runningIds(), ...this.picker.waitingIds()])
  }

  /**
   * Every row held, split by age for the heartbeat: a row picked less than half an interval ago
   * has the heartbeat its pick wrote, so its first refresh comes at most 1.5 intervals after the
   * pick and one late beat still stays inside the timeout (HEARTBEATS_PER_TIMEOUT). Quick jobs
   * finish before they need one.
   */
  byAge(heartbeatIntervalSeconds: number): { stale: string[]; fresh: string[] } {
    const before = Date.now() - (heartbeatIntervalSeconds * 1000) / 2
    const stale = [...this.executor.runningIds(before), ...this.picker.waitingIds(before), ...this.outcomes.ids()]
    const refreshed = new Set(stale)
    const fresh = [...this.executor.runningIds(), ...this.picker.waitingIds()].filter((id) => !refreshed.has(id))
    return { stale, fresh }
  }

  /** An operator canceled these jobs: abort the running ones, log the waiting ones `canceled` without running them. */
  cancel(ids: readonly string[]): void {
    this.executor.requestCancel(ids)
    const wanted = new Set(ids)
    const waiting = this.picker.takeWaiting((job) => wanted.has(job.id))
    if (waiting.length) this.executor.releaseWaiting(waiting, true)
  }

  /** The waiting jobs that match go back to `queued` without counting an attempt; they never started. */
  releaseWaiting(match?: (job: PickedJob) => boolean): void {
    const waiting = this.picker.takeWaiting(match)
    if (waiting.length) this.executor.releaseWaiting(waiting)
  }
}
