/**
 * Steady load for tests that change something under running workers (a rolling upgrade): batches
 * of the fixture jobs enqueued every `everyMs` until stopped, each acknowledged id kept, and a
 * sampler of how many jobs of a limited entrypoint are picked at once.
 */
import type pg from 'pg'
import type { EnqueueItem } from '../../src/queue/enqueue.js'

/** An `enqueueMany` of some build of aizk (this one's, or the previous release's library). */
export type EnqueueMany = (db: pg.Pool, items: EnqueueItem[]) => Promise<(string | false)[]>

export interface SteadyLoad {
  /** Ids the enqueue acknowledged, by entrypoint. */
  acknowledged: Map<string, string[]>
  /** Switch the library that enqueues from now on. */
  use(enqueue: EnqueueMany): void
  stop(): Promise<void>
}

export function startSteadyLoad(pool: pg.Pool, enqueue: EnqueueMany, batch: () => EnqueueItem[], everyMs: number): SteadyLoad {
  const acknowledged = new Map<string, string[]>()
  let current = enqueue
  let running = true
  const loop = (async () => {
    while (running) {
      const items = batch()
      const ids = await current(pool, items)
      ids.forEach((id, i) => {
        if (id === false) throw new Error(`enqueue refused ${items[i].entrypoint} without a dedupe key`)
        const list = acknowledged.get(items[i].entrypoint) ?? []
        list.push(id)
        acknowledged.set(items[i].entrypoint, list)
      })
      await new Promise((r) => setTimeout(r, everyMs))
    }
  })()
  // A failed enqueue ends the load; stop() throws it.
  loop.catch(() => {})
  return {
    acknowledged,
    use(enqueue) {
      current = enqueue
    },
    async stop() {
      running = false
      await loop
    },
  }
}

export interface PickSampler {
  /** The most jobs of the entrypoint seen picked at once. */
  max(): number
  samples(): number
  stop(): Promise<void>
}

export function samplePicked(pool: pg.Pool, entrypoint: string): PickSampler {
  let max = 0
  let samples = 0
  let running = true
  const loop = (async () => {
    const client = await pool.connect()
    try {
      while (running) {
        const { rows } = await client.query<{ n: number }>("select count(*)::int n from pgqueuer where entrypoint = $1 and status = 'picked'", [entrypoint])
        max = Math.max(max, rows[0].n)
        samples++
      }
    } finally {
      client.release()
    }
  })()
  return {
    max: () => max,
    samples: () => samples,
    async stop() {
      running = false
      await loop
    },
  }
}
