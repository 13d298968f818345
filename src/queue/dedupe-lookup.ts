/** Which live job holds a dedupe key (queued, picked or held): what `aizk enqueue` reports. */
import type { Queryable } from '../db/queryable.js'

export async function findLiveByKey(db: Queryable, dedupeKey: string): Promise<{ id: string; status: string; entrypoint: string } | null> {
  const { rows } = await db.query<{ id: string; status: string; entrypoint: string }>(
    `SELECT id::text, status::text, entrypoint FROM pgqueuer
      WHERE dedupe_key = $1 AND status IN ('queued', 'picked', 'failed')
      LIMIT 1`,
    [dedupeKey],
  )
  return rows[0] ?? null
}
