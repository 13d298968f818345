/**
 * The enqueue door's payload limit lives in the database (aizk_enqueue_limit), where the door
 * reads it: scoped work calls the door directly, so a limit kept in the process would bind nothing.
 * `aizk install` writes AIZK_ENQUEUE_MAX_PAYLOAD_BYTES there.
 */
import type { Queryable } from '../queryable.js'

/** Set the door's limit; returns whether it changed. */
export async function writeEnqueueLimit(db: Queryable, maxPayloadBytes: number): Promise<boolean> {
  const result = await db.query('UPDATE aizk_enqueue_limit SET max_payload_bytes = $1 WHERE max_payload_bytes IS DISTINCT FROM $1', [maxPayloadBytes])
  return (result.rowCount ?? 0) > 0
}
