/**
 * What the live worker view shows, aggregated from the worker's events. Listeners do O(1) work
 * per event (counters, a fixed ring of recent picks and holds, a version number), and the view
 * service samples the rates and asks `drawKey` on its own timer: a snapshot is taken, and the
 * view drawn, only when the key changed, so an idle worker draws nothing at all and thousands
 * of jobs per second never mean thousands of renders.
 */
import type { WorkerEventMap, WorkerEvents } from '../../events.js'
import { formatAgeMinutes, formatSteadyRate } from '../../operator/format.js'
import type { EntrypointRow, PickOutcome, RecentHold, RecentPick, ScheduleRow, Totals, WorkerViewState } from './view-state.js'

export type { EntrypointRow, PickOutcome, RecentHold, RecentPick, ScheduleRow, Totals, WorkerViewState } from './view-state.js'

export interface ViewStoreOptions {
  /** Concurrency limit of an entrypoint (0 = unbounded). */
  limitOf?: (entrypoint: string) => number
  /** How many recent picks and holds to keep. Default 8 and 5. */
  keepPicks?: number
  keepHolds?: number
  /** Seconds the rates average over. Default 5. */
  rateWindowSeconds?: number
  now?: () => number
}

interface Sample {
  t: number
  picked: number
  completed: number
  failed: number
}

export class WorkerViewStore {
  private readonly limitOf: (entrypoint: string) => number
  private readonly keepPicks: number
  private readonly keepHolds: number
  private readonly rateWindowMs: number
  private readonly now: () => number
  private readonly startedAt: number
  private phase: WorkerViewState['phase'] = 'starting'
  private worker?: WorkerEventMap['worker:started']
  private db: WorkerViewState['db']
  private lastError?: WorkerViewState['lastError']
  private readonly totals: Totals = { picked: 0, completed: 0, retried: 0, held: 0, canceled: 0, released: 0, recovered: 0, batches: 0 }
  private readonly rows = new Map<string, EntrypointRow>()
  private readonly picks: RecentPick[] = []
  private pickHead = 0
  /** jobId -> its entry in the ring, for those still in it, so a finish updates its pick line. */
  private readonly pickById = new Map<string, RecentPick>()
  private readonly holds: RecentHold[] = []
  private readonly schedules = new Map<string, ScheduleRow>()
  private samples: Sample[] = []
  private readonly notes: string[] = []
  /** Bumped by every event: what the view shows can only have changed when it moved. */
  private version = 0

  constructor(opts: ViewStoreOptions = {}) {
    this.limitOf = opts.limitOf ?? (() => 0)
    this.keepPicks = opts.keepPicks ?? 8
    this.keepHolds = opts.keepHolds ?? 5
    this.rateWindowMs = (opts.rateWindowSeconds ?? 5) * 1000
    this.now = opts.now ?? Date.now
    this.startedAt = this.now()
    this.db = { state: 'connecting', since: this.startedAt }
  }

  /**
   * A line the command would print on stderr (the embedded server's start, a schema install):
   * on a terminal the view's redraws would erase it, so the view shows it in its header. The
   * last few are kept.
   */
  note(line: string): void {
    this.notes.push(line)
    if (this.notes.length > 3) this.notes.shift()
    this.version++
  }

  /** Listen to a worker's events; returns the function that stops listening. */
  attach(events: WorkerEvents): () => void {
    const on = <K extends keyof WorkerEventMap>(name: K, listener: (payload: WorkerEventMap[K]) => void) =>
      events.on(name, (payload) => {
        this.version++
        listener(payload)
      })
    const offs = [
      on('worker:started', (e) => {
        this.worker = e
        this.phase = 'running'
        // The worker starts only once its database answers and the schema is current.
        if (this.db.state === 'connecting') this.db = { state: 'ok', since: this.now() }
        for (const ep of e.entrypoints) this.row(ep)
      }),
      on('worker:waiting', (e) => {
        this.phase = 'waiting'
        this.db = { state: 'connecting', since: this.db.since, lastError: `waiting for PostgreSQL (attempt ${e.attempt}): ${e.error}` }
      }),
      on('worker:stopping', () => {
        this.phase = 'draining'
      }),
      on('worker:stopped', () => {
        this.phase = 'stopped'
      }),
      on('worker:error', (e) => {
        this.lastError = { at: this.now(), where: e.where, error: e.error }
      }),
      on('db:lost', (e) => {
        this.db = { state: 'lost', since: this.now(), lastError: e.error }
      }),
      on('db:reconnected', () => {
        this.db = { state: 'ok', since: this.now(), lastError: this.db.lastError }
      }),
      on('batch:picked', () => {
        this.totals.batches++
      }),
      on('job:picked', (e) => this.onPicked(e)),
      on('job:completed', (e) => this.onFinished(e.jobId, e.entrypoint, 'completed', e.durationMs)),
      on('job:retried', (e) => this.onFinished(e.jobId, e.entrypoint, 'retried', e.durationMs)),
      on('job:held', (e) => {
        this.onFinished(e.jobId, e.entrypoint, 'held', e.durationMs)
        this.holds.unshift({
          at: this.now(),
          jobId: e.jobId,
          entrypoint: e.entrypoint,
          attempts: e.attempts,
          durationMs: e.durationMs,
          error: e.error,
          scopes: e.scopes,
        })
        if (this.holds.length > this.keepHolds) this.holds.pop()
      }),
      on('job:released', (e) => this.onFinished(e.jobId, e.entrypoint, 'released')),
      on('job:cancel-requested', (e) => {
        const entry = this.pickById.get(e.jobId)
        if (entry?.outcome === 'running') entry.outcome = 'canceling'
      }),
      on('job:canceled', (e) => this.onFinished(e.jobId, e.entrypoint, 'canceled', e.durationMs)),
      on('entrypoint:paused', (e) => {
        this.row(e.entrypoint).paused = true
      }),
      on('entrypoint:resumed', (e) => {
        this.row(e.entrypoint).paused = false
      }),
      on('job:recovered', () => {
        this.totals.recovered++
      }),
      on('schedule:next', (e) => {
        const row = this.schedule(e.name, e.cronEntrypoint)
        row.nextRun = e.nextRun
      }),
      on('schedule:fired', (e) => {
        const row = this.schedule(e.name, e.cronEntrypoint)
        row.lastFiredAt = new Date(this.now()).toISOString()
        row.lastEnqueued = e.enqueued
      }),
    ]
    return () => {
      for (const off of offs) off()
    }
  }

  private row(entrypoint: string): EntrypointRow {
    let row = this.rows.get(entrypoint)
    if (!row) {
      row = { entrypoint, inFlight: 0, limit: this.limitOf(entrypoint), picked: 0, completed: 0, retried: 0, held: 0, paused: false }
      this.rows.set(entrypoint, row)
    }
    return row
  }

  private schedule(name: string, cronEntrypoint: string): ScheduleRow {
    let row = this.schedules.get(name)
    if (!row) {
      row = { name, cronEntrypoint }
      this.schedules.set(name, row)
    }
    return row
  }

  private onPicked(e: WorkerEventMap['job:picked']): void {
    this.totals.picked++
    const row = this.row(e.entrypoint)
    row.picked++
    row.inFlight++
    const entry: RecentPick = {
      at: this.now(),
      jobId: e.jobId,
      entrypoint: e.entrypoint,
      priority: e.priority,
      attempts: e.attempts,
      waitMs: e.waitMs,
      scopes: e.scopes,
      outcome: 'running',
    }
    // A ring: overwrite the oldest slot, and forget the job it held.
    const old = this.picks[this.pickHead]
    if (old && this.pickById.get(old.jobId) === old) this.pickById.delete(old.jobId)
    this.picks[this.pickHead] = entry
    this.pickHead = (this.pickHead + 1) % this.keepPicks
    this.pickById.set(e.jobId, entry)
  }

  private onFinished(jobId: string, entrypoint: string, outcome: Exclude<PickOutcome, 'running' | 'canceling'>, durationMs?: number): void {
    const row = this.row(entrypoint)
    row.inFlight = Math.max(0, row.inFlight - 1)
    if (outcome === 'completed') row.completed++
    if (outcome === 'retried') row.retried++
    if (outcome === 'held') row.held++
    this.totals[outcome]++
    const entry = this.pickById.get(jobId)
    if (entry) {
      entry.outcome = outcome
      entry.durationMs = durationMs
      this.pickById.delete(jobId)
    }
  }

  /** Record the counters for the rate window; the view service calls it on its timer. */
  sample(now = this.now()): void {
    const failed = this.totals.retried + this.totals.held
    const same = (x?: Sample) => x !== undefined && x.picked === this.totals.picked && x.completed === this.totals.completed && x.failed === failed
    const last = this.samples.at(-1)
    // Idle: the two newest samples already hold these counters, so moving the newest one's time
    // is enough (no allocation), and the window still slides past the last activity.
    if (last && same(last) && same(this.samples.at(-2))) {
      last.t = now
    } else {
      this.samples.push({ t: now, picked: this.totals.picked, completed: this.totals.completed, failed })
    }
    while (this.samples.length > 2 && now - this.samples[1].t >= this.rateWindowMs) this.samples.shift()
  }

  private rates(now: number): WorkerViewState['rates'] {
    const first = this.samples[0]
    if (!first) return { picked: 0, completed: 0, failed: 0 }
    const dt = (now - first.t) / 1000
    const rate = (a: number, b: number) => (dt > 0 ? (a - b) / dt : 0)
    return {
      picked: rate(this.totals.picked, first.picked),
      completed: rate(this.totals.completed, first.completed),
      failed: rate(this.totals.retried + this.totals.held, first.failed),
    }
  }

  /**
   * Everything that decides the drawn frame besides the events: the rates as shown, and the
   * times shown at their display resolution (minutes). Equal keys draw equal frames.
   */
  drawKey(now = this.now()): string {
    const r = this.rates(now)
    let key = `${this.version} ${formatSteadyRate(r.picked)} ${formatSteadyRate(r.completed)} ${formatSteadyRate(r.failed)} ${formatAgeMinutes(now - this.startedAt)}`
    for (const s of this.schedules.values()) if (s.nextRun) key += ` ${formatAgeMinutes(Date.parse(s.nextRun) - now)}`
    return key
  }

  /** A plain copy of what to draw now. */
  snapshot(): WorkerViewState {
    const now = this.now()
    this.sample(now)
    const ordered = [...this.picks.slice(this.pickHead), ...this.picks.slice(0, this.pickHead)].reverse()
    let inFlight = 0
    for (const row of this.rows.values()) inFlight += row.inFlight
    return {
      now,
      startedAt: this.startedAt,
      phase: this.phase,
      worker: this.worker,
      db: { ...this.db },
      lastError: this.lastError,
      totals: { ...this.totals },
      rates: this.rates(now),
      inFlight,
      entrypoints: [...this.rows.values()].map((r) => ({ ...r })).sort((a, b) => a.entrypoint.localeCompare(b.entrypoint)),
      picks: ordered.filter(Boolean).map((p) => ({ ...p })),
      holds: this.holds.map((h) => ({ ...h })),
      schedules: [...this.schedules.values()].map((s) => ({ ...s })).sort((a, b) => (a.nextRun ?? '\uffff').localeCompare(b.nextRun ?? '\uffff')),
      notes: [...this.notes],
    }
  }
}
