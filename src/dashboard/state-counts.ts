/**
 * The live jobs per state for the dashboard's tabs and cards: queued, picked and held from the
 * trigger-kept count tables, split into ready and scheduled (execute_after still in the future)
 * by one index range count per entrypoint with queued rows. Nothing here scans the queue whole.
 */
import type { Queryable } from '../db/queryable.js'
import { readCounts } from '../queue/counts.js'
import { countScheduled } from '../queue/held-search.js'

export interface StateCounts {
  /** Queued and due now: what the next pick takes. */
  ready: number
  /** Queued for later (execute_after in the future). */
  scheduled: number
  picked: number
  held: number
}

export async function readStateCounts(db: Queryable): Promise<StateCounts> {
  const counts = await readCounts(db)
  const sum = (status: string) => counts.filter((c) => c.status === status).reduce((n, c) => n + c.n, 0)
  const queuedEps = [...new Set(counts.filter((c) => c.status === 'queued' && c.n > 0).map((c) => c.entrypoint))]
  const scheduled = [...(await countScheduled(db, queuedEps)).values()].reduce((n, v) => n + v, 0)
  const queued = sum('queued')
  return { ready: Math.max(0, queued - scheduled), scheduled, picked: sum('picked'), held: sum('failed') }
}
