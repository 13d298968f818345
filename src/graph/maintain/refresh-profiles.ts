/**
 * ProfileRefreshJob's body: drift repair. Every live entity of the set gets a profile (one that
 * went missing is created) and every profile is marked dirty in one short transaction, then the
 * dirty-profile builder (profiles.ts) rebuilds them all in batches that commit as they go, not
 * only the ones a projection happened to touch.
 */
import type pg from 'pg'
import type { User } from '../../scope/user.js'
import { type ProfileSettings, refreshDirtyProfiles } from './profiles.js'
import { createMissingProfiles, markAllProfilesDirty } from './sql/profile-sql.js'

export async function refreshAllProfiles(pool: pg.Pool, user: User, settings: ProfileSettings, signal?: AbortSignal) {
  const created = await user.transaction(pool, async (db) => {
    const created = await createMissingProfiles(db, user.write)
    await markAllProfilesDirty(db, user.write)
    return created
  })
  const rebuilt = await refreshDirtyProfiles(pool, user, settings, signal)
  return { rebuilt, created }
}
