/**
 * The worker's output without a terminal (systemd, Kubernetes, CI): one JSON object per line per
 * event, `{"ts", "event", ...fields}`, never an escape code. A listener of the same events the
 * live view draws. At thousands of jobs per second the per-job lines can be switched off
 * (AIZK_WORKER_LOG_JOBS=false): batch, worker, database and schedule lines remain, and so do
 * held and recovered jobs, which are rare and need an operator's eye.
 */
import type { WorkerEventMap, WorkerEventName, WorkerEvents } from '../events.js'

export interface JsonLinesOptions {
  /** Where output goes; called with one or more whole lines, each ending in a newline. */
  write: (chunk: string) => void
  /** Per-job lines (job:picked, job:completed, ...). Default true. */
  jobs?: boolean
  /** The clock, for tests. */
  now?: () => Date
}

/** Every event, and whether it is a per-job one (a missing name fails to compile). */
const EVENTS: Record<WorkerEventName, 'job' | 'always'> = {
  'worker:started': 'always',
  'worker:waiting': 'always',
  'worker:stopping': 'always',
  'worker:stopped': 'always',
  'worker:error': 'always',
  'outcomes:written': 'job',
  'queue:vacuumed': 'always',
  'db:lost': 'always',
  'db:reconnected': 'always',
  'batch:picked': 'always',
  'job:picked': 'job',
  'job:completed': 'job',
  'job:retried': 'job',
  'job:held': 'always',
  'job:released': 'job',
  'job:recovered': 'always',
  'job:cancel-requested': 'always',
  'job:cancel-unverified': 'always',
  'job:canceled': 'always',
  'entrypoint:paused': 'always',
  'entrypoint:resumed': 'always',
  'schedule:fired': 'always',
  'schedule:next': 'always',
  'artifact:integrity': 'always',
  'backup:written': 'always',
}

/** Render one event as its JSON line (no trailing newline). */
export function formatJsonLine<K extends WorkerEventName>(name: K, payload: WorkerEventMap[K], ts: Date): string {
  return JSON.stringify({ ts: ts.toISOString(), event: name, ...payload })
}

export interface JsonLines {
  /** Write what is buffered now (lines are batched per turn of the event loop). */
  flush(): void
  /** Flush and stop listening. */
  detach(): void
}

/**
 * Attach the JSON-lines logger. Subscribes per event (never onAny), so with per-job lines off
 * `events.wants('job:picked')` stays false and the worker skips building those payloads.
 */
export function attachJsonLines(events: WorkerEvents, opts: JsonLinesOptions): JsonLines {
  const jobs = opts.jobs ?? true
  const now = opts.now ?? (() => new Date())
  let buffer: string[] = []
  let scheduled = false
  const flush = () => {
    scheduled = false
    if (buffer.length === 0) return
    const chunk = `${buffer.join('\n')}\n`
    buffer = []
    opts.write(chunk)
  }
  const offs: (() => void)[] = []
  for (const [name, kind] of Object.entries(EVENTS) as [WorkerEventName, 'job' | 'always'][]) {
    if (kind === 'job' && !jobs) continue
    offs.push(
      events.on(name, (payload) => {
        buffer.push(formatJsonLine(name, payload, now()))
        if (!scheduled) {
          scheduled = true
          setImmediate(flush)
        }
      }),
    )
  }
  return {
    flush,
    detach() {
      for (const off of offs.splice(0)) off()
      flush()
    },
  }
}
