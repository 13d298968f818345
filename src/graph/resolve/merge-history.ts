/**
 * A scope set's merges as an operator sees them (`aizk graph merges`) and undoing one
 * (`aizk graph unmerge`), each inside User.system(scopes) through the app role: a set lists and
 * undoes only its own merges.
 */
import type pg from 'pg'
import { UsageError } from '../../errors.js'
import { isUuid } from '../../scope/scope-set.js'
import { type IdentitySettings, User } from '../../scope/user.js'
import { listMerges, type MergeRecord, unmergeEntity } from './sql/merge-record-sql.js'

export type { MergeRecord }

export function readMerges(
  pool: pg.Pool,
  scopes: Iterable<string>,
  settings: IdentitySettings,
  opts: { limit: number; entity?: string; undone?: boolean },
): Promise<MergeRecord[]> {
  const user = User.system(scopes, settings)
  return user.transaction(pool, (db) => listMerges(db, user.write, opts))
}

export function undoMerge(pool: pg.Pool, scopes: Iterable<string>, settings: IdentitySettings, mergeId: string): Promise<MergeRecord> {
  const id = mergeId.trim().toLowerCase()
  if (!isUuid(id)) throw new UsageError(`merge id "${mergeId}" is not a UUID`, 'copy it from `aizk graph merges --scope ...`')
  const user = User.system(scopes, settings)
  return user.transaction(pool, (db) => unmergeEntity(db, user.write, id))
}
