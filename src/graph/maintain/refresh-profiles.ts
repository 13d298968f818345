/**
 * ProfileRefreshJob's body: drift repair. Every live entity of the set gets a profile (one that
 * went missing is created) and every profile is marked dirty, then the dirty-profile builder (profiles.ts)
 * rebuilds them all, not only the ones a projection happened to touch.
 */
import type { Queryable } from '../../db/queryable.js'
import { refreshDirtyProfiles } from './profiles.js'

export async function refreshAllProfiles(db: Queryable, scopes: readonly string[], settings: Parameters<typeof refreshDirtyProfiles>[2], signal?: AbortSignal) {
  const created = await db.query(
    `INSERT INTO profile (entity_id, scopes, dirty)
     SELECT e.id, $1::uuid[], true FROM entity e
      WHERE e.scopes = $1::uuid[] AND e.merged_into IS NULL
        AND NOT EXISTS (SELECT 1 FROM profile p WHERE p.entity_id = e.id)
     ON CONFLICT (entity_id) DO NOTHING`,
    [scopes],
  )
  await db.query('UPDATE profile SET dirty = true WHERE scopes = $1::uuid[] AND NOT dirty', [scopes])
  const rebuilt = await refreshDirtyProfiles(db, scopes, settings, signal)
  return { rebuilt, created: created.rowCount ?? 0 }
}
