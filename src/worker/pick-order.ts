/**
 * The order of the picks on their way. Each pick is numbered as it is sent; a job of a pick that
 * came back starts only once every pick sent before it came back too. Two picks in flight race
 * on the server: the one sent later may run first and take the higher rows (SKIP LOCKED passes
 * the other over them), while the one sent first comes back first, with the lower rows.
 */
import type { PickedJob } from '../queue/pick.js'

export class PickOrder {
  /** Picks sent so far: each is numbered in send order. */
  private sent = 0
  /** Every pick numbered below this one is back. */
  private backBelow = 0
  /** Picks numbered from `backBelow` on that are back. */
  private readonly backAhead = new Set<number>()
  /** Date.now() when each pick on its way was sent, by its number. */
  private readonly sentAt = new Map<number, number>()
  /** A waiting job starts once `backBelow` reaches this: the picks sent before its own came back. */
  private readonly startsAfter = new WeakMap<PickedJob, number>()

  /** A pick is sent at `at`: its number. */
  send(at: number): number {
    const seq = this.sent++
    this.sentAt.set(seq, at)
    return seq
  }

  /** The pick's round trip is over (back or failed): it is no longer on its way. */
  settled(seq: number): void {
    this.sentAt.delete(seq)
  }

  /** The pick came back (or failed): the picks sent before it may now be all back. */
  back(seq: number): void {
    this.backAhead.add(seq)
    while (this.backAhead.delete(this.backBelow)) this.backBelow++
  }

  /** A job of a pick just back waits for every pick sent by now. */
  holdBack(job: PickedJob): void {
    if (this.sent > this.backBelow) this.startsAfter.set(job, this.sent)
  }

  /** Every pick sent before this job's own came back. */
  mayStart(job: PickedJob): boolean {
    return (this.startsAfter.get(job) ?? 0) <= this.backBelow
  }

  /** Date.now() when the oldest pick on its way was sent, +Infinity when none is. */
  oldestSentAt(): number {
    let since = Number.POSITIVE_INFINITY
    for (const at of this.sentAt.values()) since = Math.min(since, at)
    return since
  }
}
