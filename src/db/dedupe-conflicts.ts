/**
 * Adoption of a PgQueuer database: PgQueuer's unique dedupe index covers queued and picked rows
 * only, aizk's (aizk_dedupe_key_live, built by the baseline migration) also held ones. A PgQueuer database can
 * therefore hold a key twice (a held row and a live one, or two held rows), and aizk's index
 * cannot be built until that is resolved. `findDedupeConflicts` lists them; `resolveDedupeConflicts`
 * keeps one row per key (the live one, else the newest held) and renames the key of the others
 * to `<key>#dup-of-<kept id>`, noting the original under headers.aizk.dedupeKeyConflict.
 */
import type pg from 'pg'
import { ConflictError } from '../errors.js'
import { DEDUPE_INDEX_PENDING, FIND_DEDUPE_CONFLICTS, RESOLVE_DEDUPE_CONFLICTS } from './sql/dedupe-conflicts.js'

export interface DedupeConflict {
  dedupeKey: string
  jobs: { id: string; status: string }[]
}

export interface ResolvedDuplicate {
  id: string
  dedupeKey: string
  newDedupeKey: string
  keptJob: string
}

/** True when aizk's held-aware dedupe index is still to be built on an existing pgqueuer table. */
export async function dedupeIndexPending(client: pg.ClientBase): Promise<boolean> {
  const { rows } = await client.query<{ pending: boolean }>(DEDUPE_INDEX_PENDING)
  return rows[0].pending
}

/** Compares status as text: an older PgQueuer enum has no 'failed' until install adds it. */
export async function findDedupeConflicts(client: pg.ClientBase, limit = 1000): Promise<DedupeConflict[]> {
  const { rows } = await client.query<{ dedupe_key: string; ids: string[]; statuses: string[] }>(FIND_DEDUPE_CONFLICTS, [limit])
  return rows.map((r) => ({ dedupeKey: r.dedupe_key, jobs: r.ids.map((id, i) => ({ id, status: r.statuses[i] })) }))
}

/** Run inside the transaction that builds the index, after locking pgqueuer against writers. */
export async function resolveDedupeConflicts(client: pg.ClientBase): Promise<ResolvedDuplicate[]> {
  const { rows } = await client.query<{ id: string; old_key: string; new_key: string; kept: string }>(RESOLVE_DEDUPE_CONFLICTS)
  return rows.map((r) => ({ id: r.id, dedupeKey: r.old_key, newDedupeKey: r.new_key, keptJob: r.kept }))
}

export function dedupeConflictError(conflicts: DedupeConflict[]): ConflictError {
  const shown = conflicts.slice(0, 20).map((c) => `  ${c.dedupeKey}: ${c.jobs.map((j) => `job ${j.id} (${j.status})`).join(', ')}`)
  const more = conflicts.length > shown.length ? [`  ... and ${conflicts.length - shown.length} more key(s)`] : []
  return new ConflictError(
    `cannot adopt this PgQueuer database: ${conflicts.length} dedupe key(s) are held by more than one queued, picked or held job, and aizk's dedupe index also covers held jobs:\n${[...shown, ...more].join('\n')}`,
    'nothing was changed. Run `aizk install --resolve-duplicate-keys` to keep the live (else the newest held) job of each key and rename the key of the others to <key>#dup-of-<kept id>; or requeue, delete or re-key them yourself (docs/pgqueuer-interop.md)',
    conflicts,
  )
}
