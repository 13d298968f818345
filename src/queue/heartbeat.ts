/**
 * One statement per interval for everything a worker holds: its `aizk_worker` row and every
 * row it has picked (found through pgqueuer_queue_manager_id_idx), never one per job.
 */
import type { Queryable } from '../db/queryable.js'

const HEARTBEAT = {
  name: 'aizk_heartbeat',
  text: `WITH w AS (UPDATE aizk_worker SET heartbeat = now() WHERE queue_manager_id = $1 RETURNING 1)
         UPDATE pgqueuer SET heartbeat = now()
          WHERE queue_manager_id = $1 AND status = 'picked'`,
}

/** Returns how many picked rows were touched. */
export async function heartbeat(db: Queryable, queueManagerId: string): Promise<number> {
  const result = await db.query({ ...HEARTBEAT, values: [queueManagerId] })
  return result.rowCount ?? 0
}
