/**
 * Jobs this worker picked that wait for a free handler slot, in pick order (priority descending,
 * then id), across picks too: two pickers' batches can return in either order, and a later pick
 * may bring a job of higher priority, so a batch that does not simply follow is merged in. They
 * are `picked` rows of this worker, so its one heartbeat statement keeps them (nobody re-picks
 * them) and a kill leaves them to the stale-pick path. Bounded by the pick loop, which stops
 * picking while the queue is full.
 */
import type { PickedJob } from '../queue/pick.js'

export class LocalQueue {
  private items: (PickedJob | undefined)[] = []
  private head = 0

  get size(): number {
    return this.items.length - this.head
  }

  push(jobs: readonly PickedJob[]): void {
    if (jobs.length === 0) return
    const last = this.items[this.items.length - 1]
    if (this.size === 0 || !last || !before(jobs[0], last)) {
      for (const job of jobs) this.items.push(job)
      return
    }
    const waiting = this.items.slice(this.head) as PickedJob[]
    const merged: PickedJob[] = []
    let i = 0
    let k = 0
    while (i < waiting.length || k < jobs.length) {
      if (k >= jobs.length || (i < waiting.length && !before(jobs[k], waiting[i]))) merged.push(waiting[i++])
      else merged.push(jobs[k++])
    }
    this.items = merged
    this.head = 0
  }

  /** The next job in pick order, left in place; undefined when empty. */
  peek(): PickedJob | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined
  }

  /** The next job in pick order, or undefined when empty. */
  take(): PickedJob | undefined {
    if (this.head >= this.items.length) return undefined
    const job = this.items[this.head]
    this.items[this.head++] = undefined
    // Compact once the consumed front is the larger part, so the array stays bounded.
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head)
      this.head = 0
    }
    return job
  }

  /** Ids of the waiting jobs (the heartbeat's list). */
  /** Ids of the waiting jobs, or of those whose pick came back before `pickedBefore` (Date.now() ms). */
  ids(pickedBefore = Number.POSITIVE_INFINITY): string[] {
    const ids: string[] = []
    for (let i = this.head; i < this.items.length; i++) {
      const job = this.items[i] as PickedJob
      if ((job.pickedAtMs ?? 0) < pickedBefore) ids.push(job.id)
    }
    return ids
  }

  has(id: string): boolean {
    for (let i = this.head; i < this.items.length; i++) if (this.items[i]?.id === id) return true
    return false
  }

  /** Remove and return the waiting jobs that match, keeping the others in order. */
  removeWhere(match: (job: PickedJob) => boolean): PickedJob[] {
    const taken: PickedJob[] = []
    const kept: PickedJob[] = []
    for (let i = this.head; i < this.items.length; i++) {
      const job = this.items[i] as PickedJob
      if (match(job)) taken.push(job)
      else kept.push(job)
    }
    if (taken.length) {
      this.items = kept
      this.head = 0
    }
    return taken
  }

  /** Remove and return every waiting job (shutdown). */
  clear(): PickedJob[] {
    return this.removeWhere(() => true)
  }
}

/** Pick order: priority descending, then id ascending (ids are bigints as decimal strings). */
function before(a: PickedJob, b: PickedJob): boolean {
  if (a.priority !== b.priority) return a.priority > b.priority
  return a.id.length !== b.id.length ? a.id.length < b.id.length : a.id < b.id
}
