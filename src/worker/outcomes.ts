/**
 * Where finished jobs wait for their one statement: completions, retries, holds and releases
 * are buffered and written in batches (group commit). A flush starts on the next turn of the
 * event loop; while one runs, the next batch gathers, so a busy worker writes few, large
 * statements and an idle one writes at once. A flush that fails for no reason of its rows (the
 * connection, the server) keeps its items and tries again: the rows stay `picked` and
 * heartbeated meanwhile, so nothing is lost. A row the database refuses is isolated from its
 * batch (isolate-writes.ts) and, for a retry or a hold, written once more with an error that
 * names only the refusal (outcome-fallback.ts); it never holds back the outcomes behind it.
 * A retry or a hold is announced (its callback) only once written.
 */
import type pg from 'pg'
import { settleCanceled } from '../queue/cancel-request.js'
import { completeJobs } from '../queue/complete.js'
import { type HoldItem, holdJobIds, type OutcomeOptions, type RetryItem, releaseJobs, retryJobIds } from '../queue/retry.js'
import { type IsolatedWrite, writeIsolating } from './isolate-writes.js'
import { holdFallback, retryFallback } from './outcome-fallback.js'
import { DEFAULT_COMPLETION_FLUSH_MS } from './settings.js'

const MAX_PER_STATEMENT = 4096

/** A retry or a hold, with what to do once it is written (the item as written: maybe its fallback). */
interface Announced<T> {
  item: T
  written?: (item: T) => void
}

/** What one write committed, per kind of outcome. */
export interface OutcomeCounts {
  completed: number
  retried: number
  held: number
  released: number
  canceled: number
}
/** Flushes in flight at once: one writes while the next batch gathers behind it. */
const MAX_FLUSHES = 2
/**
 * Completions are written by statements of their own, never carried by a pick: the server
 * completes one batch on one backend while it picks the next on another (a pick that carried
 * them, one statement and one commit, left the second core idle: a busy no-op drain runs about
 * 1.3x faster this way; docs/job-lifecycle.md#completion). A notifying commit is serialised (one WAL
 * flush each), so while the worker is busy completions gather for up to `gatherMs`
 * (AIZK_COMPLETION_FLUSH_MS) or GATHER_MAX jobs before their statement, and an idle worker writes
 * them at once. A worker killed while they gather runs those jobs again
 * (docs/job-lifecycle.md#batched-completions-the-at-least-once-window).
 */
const GATHER_MAX = 512

export class OutcomeBuffer {
  private completes: string[] = []
  /** The pending timer is a gathering's (complete() may cut it short), not a retry's backoff. */
  private gathering = false
  private retries: Announced<RetryItem>[] = []
  private holds: Announced<HoldItem>[] = []
  private releases: string[] = []
  private cancels: string[] = []
  private flushing = 0
  private timer: NodeJS.Immediate | NodeJS.Timeout | undefined
  private failures = 0
  private idleWaiters: (() => void)[] = []
  private closed = false
  /** Ids whose outcome is being written now (a write that fails puts them back in the buffers). */
  private readonly writing = new Set<string>()

  /** While true (the worker's picks come back full), completions gather before their statement. */
  busy: () => boolean = () => false
  /** Told of every committed write, with what it wrote. */
  onWritten: (written: OutcomeCounts) => void = () => {}

  constructor(
    private readonly pool: pg.Pool,
    private readonly queueManagerId: string,
    private readonly options: OutcomeOptions,
    private readonly onError: (where: string, err: unknown) => void,
    private readonly onRecovered: () => void,
    private readonly gatherMs = DEFAULT_COMPLETION_FLUSH_MS,
  ) {}

  /** Ids whose outcome is buffered or being written: their rows are still this worker's `picked` rows. */
  ids(): string[] {
    return [...this.completes, ...this.retries.map((r) => r.item.id), ...this.holds.map((h) => h.item.id), ...this.releases, ...this.cancels, ...this.writing]
  }

  has(id: string): boolean {
    return this.ids().includes(id)
  }

  get pending(): number {
    return this.completes.length + this.retries.length + this.holds.length + this.releases.length + this.cancels.length
  }

  complete(id: string): void {
    if (this.closed) return
    this.completes.push(id)
    if (this.busy() && this.completes.length < GATHER_MAX) {
      this.scheduleGathered()
      return
    }
    if (this.gathering) this.clearTimer()
    this.schedule()
  }

  /** A flush once the completions have gathered for `gatherMs` (or at once when GATHER_MAX arrive: complete). */
  private scheduleGathered(): void {
    if (this.closed || this.timer || this.flushing >= MAX_FLUSHES) return
    this.gathering = true
    this.timer = setTimeout(() => this.run(), this.gatherMs)
  }

  retry(item: RetryItem, written?: (item: RetryItem) => void): void {
    if (this.closed) return
    this.retries.push({ item, written })
    this.schedule()
  }

  hold(item: HoldItem, written?: (item: HoldItem) => void): void {
    if (this.closed) return
    this.holds.push({ item, written })
    this.schedule()
  }

  release(id: string): void {
    if (this.closed) return
    this.releases.push(id)
    this.schedule()
  }

  /** A job canceled by an operator: deleted with a `canceled` log row. */
  cancel(id: string): void {
    this.cancels.push(id)
    this.schedule()
  }

  private schedule(): void {
    if (this.closed || this.timer || this.flushing >= MAX_FLUSHES || (this.flushing > 0 && this.failures > 0)) return
    if (this.failures === 0) {
      this.timer = setImmediate(() => this.run())
    } else {
      this.timer = setTimeout(() => this.run(), Math.min(5000, 100 * 2 ** Math.min(this.failures, 6)))
    }
  }

  private run(): void {
    this.timer = undefined
    this.gathering = false
    if (this.pending === 0) {
      if (this.flushing === 0) for (const resolve of this.idleWaiters.splice(0)) resolve()
      return
    }
    this.flushing++
    this.flushOnce().finally(() => {
      this.flushing--
      if (this.pending > 0) this.schedule()
      else if (this.flushing === 0) for (const resolve of this.idleWaiters.splice(0)) resolve()
    })
  }

  private async flushOnce(): Promise<void> {
    const completes = this.completes.splice(0, MAX_PER_STATEMENT)
    const retries = this.retries.splice(0, MAX_PER_STATEMENT)
    const holds = this.holds.splice(0, MAX_PER_STATEMENT)
    const releases = this.releases.splice(0, MAX_PER_STATEMENT)
    const cancels = this.cancels.splice(0, MAX_PER_STATEMENT)
    const { pool, queueManagerId: qm, options } = this
    const batch = [...completes, ...retries.map((r) => r.item.id), ...holds.map((h) => h.item.id), ...releases, ...cancels]
    for (const id of batch) this.writing.add(id)
    const [c, rt, h, rl, cn] = await Promise.all([
      this.writeIds(completes, (ids) => completeJobs(pool, qm, ids)),
      this.writeAnnounced(retries, (items) => retryJobIds(pool, qm, items, options), retryFallback),
      this.writeAnnounced(holds, (items) => holdJobIds(pool, qm, items, options), holdFallback),
      this.writeIds(releases, (ids) => releaseJobs(pool, qm, ids, options)),
      this.writeIds(cancels, (ids) => settleCanceled(pool, qm, ids)),
    ])
    for (const id of batch) this.writing.delete(id)
    let failed = false
    const requeue = <T>(result: IsolatedWrite<T>, into: T[]) => {
      if (result.pending.length === 0) return
      failed = true
      into.unshift(...result.pending)
      this.onError('outcomes', result.error)
    }
    requeue(c, this.completes)
    requeue(rt, this.retries)
    requeue(h, this.holds)
    requeue(rl, this.releases)
    requeue(cn, this.cancels)
    const written = {
      completed: c.written.length,
      retried: rt.written.length,
      held: h.written.length,
      released: rl.written.length,
      canceled: cn.written.length,
    }
    if (written.completed + written.retried + written.held + written.released + written.canceled > 0) this.onWritten(written)
    if (failed) this.failures++
    else if (this.failures > 0) {
      this.failures = 0
      this.onRecovered()
    }
  }

  /** Ids only: a refused one has no other form; it stays picked (and is recovered once this worker is gone). */
  private async writeIds(ids: string[], write: (ids: string[]) => Promise<unknown>): Promise<IsolatedWrite<string>> {
    if (ids.length === 0) return { written: [], pending: [], refused: [] }
    const result = await writeIsolating(ids, async (batch) => {
      await write(batch)
    })
    for (const { item, error } of result.refused) this.onError('outcomes', refusedError(item, error))
    return result
  }

  /** Retries and holds: a refused one is written again in its fallback form, alone. */
  private async writeAnnounced<T extends { id: string }>(
    entries: Announced<T>[],
    write: (items: T[]) => Promise<string[]>,
    fallback: (item: T, cause: unknown) => T,
  ): Promise<IsolatedWrite<Announced<T>>> {
    if (entries.length === 0) return { written: [], pending: [], refused: [] }
    const writeAndAnnounce = async (batch: Announced<T>[]) => {
      const done = new Set(await write(batch.map((e) => e.item)))
      for (const e of batch) if (done.has(e.item.id)) e.written?.(e.item)
    }
    const result = await writeIsolating(entries, writeAndAnnounce)
    if (result.refused.length === 0) return result
    const second = await writeIsolating(
      result.refused.map(({ item, error }) => ({ item: fallback(item.item, error), written: item.written })),
      writeAndAnnounce,
    )
    for (const { item, error } of second.refused) this.onError('outcomes', refusedError(item.item.id, error))
    return {
      written: [...result.written, ...second.written],
      pending: [...result.pending, ...second.pending],
      error: result.error ?? second.error,
      refused: second.refused,
    }
  }

  /**
   * After the final drain: outcomes that arrive later are dropped (their rows were released or
   * stay picked for recovery) and no flush or retry timer is left to keep the process alive.
   */
  close(): void {
    this.closed = true
    this.clearTimer()
  }

  /** Cancel the pending write, whichever kind: the next turn's, a backoff's or a gathering's. */
  private clearTimer(): void {
    if (!this.timer) return
    clearTimeout(this.timer as NodeJS.Timeout)
    clearImmediate(this.timer as NodeJS.Immediate)
    this.timer = undefined
    this.gathering = false
  }

  /** The database is back: write what waits now instead of at the end of its backoff. */
  retryNow(): void {
    if (this.closed || this.failures === 0 || !this.timer || this.gathering) return
    this.clearTimer()
    this.run()
  }

  get isClosed(): boolean {
    return this.closed
  }

  /** Resolves once everything buffered is written, or rejects when the deadline passes first. */
  async drain(deadline: number): Promise<void> {
    while (this.pending > 0 || this.flushing) {
      if (Date.now() > deadline) throw new Error(`${this.pending} job outcomes could not be written before the deadline`)
      if (this.timer && (this.failures > 0 || this.gathering)) {
        // Stop waiting out the backoff or the gathering: write now.
        this.clearTimer()
        this.run()
      } else if (!this.timer && this.flushing === 0) {
        this.schedule()
      }
      await new Promise<void>((resolve) => {
        this.idleWaiters.push(resolve)
        setTimeout(resolve, 200).unref()
      })
    }
  }
}

function refusedError(id: string, cause: unknown): Error {
  return new Error(
    `the outcome of job ${id} was refused by the database and not written (it stays picked until this worker stops): ${(cause as Error)?.message ?? cause}`,
  )
}
