/**
 * One statement per interval for everything a worker holds: its `aizk_worker` row and every
 * row it has picked (found through pgqueuer_queue_manager_id_idx), never one per job. It also
 * reports which of those rows an operator asked to cancel and which entrypoints are paused, so
 * a cancel or pause whose NOTIFY was lost still reaches the worker within one interval.
 */
import type { Queryable } from '../db/queryable.js'

const HEARTBEAT = {
  name: 'aizk_heartbeat',
  text: `WITH w AS (UPDATE aizk_worker SET heartbeat = now() WHERE queue_manager_id = $1 RETURNING 1),
         hb AS (UPDATE pgqueuer SET heartbeat = now()
                 WHERE queue_manager_id = $1 AND status = 'picked'
                RETURNING id, headers)
         SELECT (SELECT count(*) FROM hb)::int AS touched,
                coalesce((SELECT array_agg(id::text) FROM hb WHERE headers->'aizk' ? 'cancelRequestedAt'), '{}') AS cancel,
                coalesce((SELECT array_agg(entrypoint) FROM aizk_entrypoint_pause), '{}') AS paused`,
}

export interface HeartbeatResult {
  /** Picked rows touched. */
  touched: number
  /** Ids among them whose cancel was requested. */
  cancelRequested: string[]
  /** Every paused entrypoint (a tiny table), so a lost pause notification is noticed here. */
  paused: string[]
}

export async function heartbeat(db: Queryable, queueManagerId: string): Promise<HeartbeatResult> {
  const { rows } = await db.query<{ touched: number; cancel: string[]; paused: string[] }>({ ...HEARTBEAT, values: [queueManagerId] })
  return { touched: rows[0].touched, cancelRequested: rows[0].cancel, paused: rows[0].paused }
}
