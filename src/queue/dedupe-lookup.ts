/** Which live job holds a dedupe key (queued, picked or held): what `aizk enqueue` reports. */
import type { Queryable } from '../db/queryable.js'
import { FIND_LIVE_BY_KEY } from './sql/dedupe-lookup.js'

export async function findLiveByKey(db: Queryable, dedupeKey: string): Promise<{ id: string; status: string; entrypoint: string } | null> {
  const { rows } = await db.query<{ id: string; status: string; entrypoint: string }>(FIND_LIVE_BY_KEY, [dedupeKey])
  return rows[0] ?? null
}
