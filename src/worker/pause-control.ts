/**
 * Which of a worker's entrypoints are paused (`aizk pause`): read from the database on start
 * (a restarted worker stays paused), again whenever aizk_control announces a change, after the
 * LISTEN link comes back, and whenever the heartbeat sees a paused set other than the one
 * known (so a lost notification costs at most one heartbeat interval). Changes are reported as
 * `entrypoint:paused` / `entrypoint:resumed` events and through `onChange`, on which the worker
 * re-plans its pick.
 */
import type { Queryable } from '../db/queryable.js'
import type { WorkerEventMap } from '../events.js'
import { listPaused, type PausedEntrypoint } from '../queue/pause.js'

type Emit = <K extends 'entrypoint:paused' | 'entrypoint:resumed'>(name: K, payload: WorkerEventMap[K]) => void

export class PauseControl {
  private paused = new Map<string, PausedEntrypoint>()
  private running: Promise<void> | undefined
  private again = false

  constructor(
    private readonly db: Queryable,
    private readonly bound: readonly string[],
    private readonly emit: Emit,
    private readonly onChange: () => void,
  ) {}

  isPaused(entrypoint: string): boolean {
    return this.paused.has(entrypoint)
  }

  /** The paused entrypoints among this worker's, by name. */
  get list(): string[] {
    return [...this.paused.keys()].sort()
  }

  /** Read the paused set without reporting (before the worker says it started). */
  async load(): Promise<void> {
    this.paused = await this.read()
  }

  /** Report the entrypoints paused at start. */
  announce(): void {
    for (const p of this.paused.values()) this.emit('entrypoint:paused', p)
  }

  /** Whether every entrypoint in `names` (the heartbeat's view of the table) matches what is known. */
  matches(names: readonly string[]): boolean {
    const mine = names.filter((n) => this.bound.includes(n))
    return mine.length === this.paused.size && mine.every((n) => this.paused.has(n))
  }

  /** Read the table again and report what changed; concurrent calls coalesce into one more read. */
  refresh(): Promise<void> {
    if (this.running) {
      this.again = true
      return this.running
    }
    this.running = (async () => {
      try {
        do {
          this.again = false
          this.apply(await this.read())
        } while (this.again)
      } finally {
        this.running = undefined
      }
    })()
    return this.running
  }

  private async read(): Promise<Map<string, PausedEntrypoint>> {
    const all = await listPaused(this.db)
    return new Map(all.filter((p) => this.bound.includes(p.entrypoint)).map((p) => [p.entrypoint, p]))
  }

  private apply(next: Map<string, PausedEntrypoint>): void {
    const before = this.paused
    this.paused = next
    let changed = false
    for (const [ep, p] of next) {
      if (!before.has(ep)) {
        changed = true
        this.emit('entrypoint:paused', p)
      }
    }
    for (const ep of before.keys()) {
      if (!next.has(ep)) {
        changed = true
        this.emit('entrypoint:resumed', { entrypoint: ep })
      }
    }
    if (changed) this.onChange()
  }
}
