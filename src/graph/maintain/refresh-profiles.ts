/**
 * ProfileRefreshJob's body: drift repair. Every live entity of the set gets a profile (one that
 * went missing is created) and every profile is marked dirty, then the dirty-profile builder (profiles.ts)
 * rebuilds them all, not only the ones a projection happened to touch.
 */
import type { Queryable } from '../../db/queryable.js'
import { refreshDirtyProfiles } from './profiles.js'
import { createMissingProfiles, markAllProfilesDirty } from './sql/profile-sql.js'

export async function refreshAllProfiles(db: Queryable, scopes: readonly string[], settings: Parameters<typeof refreshDirtyProfiles>[2], signal?: AbortSignal) {
  const created = await createMissingProfiles(db, scopes)
  await markAllProfilesDirty(db, scopes)
  const rebuilt = await refreshDirtyProfiles(db, scopes, settings, signal)
  return { rebuilt, created }
}
