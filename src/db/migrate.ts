/**
 * Installs and upgrades the schema (docs/schema.md): pending forward migrations in number order,
 * then every repeatable definition whose file changed, in dependency order, all in one
 * transaction under a session advisory lock. Migrations are recorded in aizk_schema_version,
 * definitions in aizk_schema_definition, each with its checksum. Two installs at once: the second
 * waits for the lock, then finds nothing to do.
 */
import type pg from 'pg'
import { AizkError, DatabaseError, SchemaChangedError } from '../errors.js'
import { dedupeConflictError, dedupeIndexPending, findDedupeConflicts, type ResolvedDuplicate, resolveDedupeConflicts } from './dedupe-conflicts.js'
import { type Definition, loadDefinitions, withRequirements } from './definitions.js'
import { BASELINE_VERSION, loadMigrations, type Migration } from './migrations.js'

export { loadMigrations, type Migration } from './migrations.js'

import {
  CREATE_SCHEMA_DEFINITION,
  CREATE_SCHEMA_VERSION,
  FORGET_REMOVED_DEFINITIONS,
  LOCK_QUEUE_FOR_DEDUPE_INDEX,
  READ_APPLIED_DEFINITIONS,
  READ_APPLIED_MIGRATIONS,
  READ_INSTALL_STATE,
  RECORD_DEFINITIONS,
  RECORD_MIGRATION,
  RELEASE_INSTALL_LOCK,
  SCHEMA_TABLES_EXIST,
  TAKE_INSTALL_LOCK,
} from './sql/migrate.js'

/** pg_advisory_lock key: 'aizk' 'migr' as two int4s. */
const LOCK_KEY: [number, number] = [0x61697a6b, 0x6d696772]

export interface MigrationOptions {
  appRole: string
}

export interface SchemaState {
  installed: boolean
  current: number
  latest: number
  pending: Migration[]
  /** Definitions whose file differs from what the database last applied. */
  pendingDefinitions: Definition[]
  /** Migrations the database recorded that this build does not have: a newer aizk installed them. */
  unknownMigrations: { version: number; name: string }[]
  /** Definitions the database recorded that this build has no file for. */
  unknownDefinitions: string[]
}

const CHECKS = new Set(['dedupe-keys'])

export async function schemaState(client: pg.ClientBase, opts: MigrationOptions): Promise<SchemaState> {
  const migrations = loadMigrations(opts)
  const definitions = loadDefinitions(opts.appRole)
  for (const m of migrations)
    for (const c of m.checks) if (!CHECKS.has(c)) throw new DatabaseError(`${m.name}: unknown check ${c}`, `use one of: ${[...CHECKS].join(', ')}`)
  const latest = migrations.at(-1)?.version ?? 0
  const { rows } = await client.query<{ versions: boolean; definitions: boolean }>(SCHEMA_TABLES_EXIST)
  const missing = { installed: false, current: 0, latest, pending: migrations, pendingDefinitions: definitions, unknownMigrations: [], unknownDefinitions: [] }
  if (!rows[0].versions) return missing
  const applied = await client.query<{ version: number; name: string; checksum: string }>(READ_APPLIED_MIGRATIONS)
  if (applied.rows.length === 0) return missing
  const current = Math.max(...applied.rows.map((r) => r.version))
  if (current < BASELINE_VERSION) throw beforeBaseline(current)
  const recorded = new Map(applied.rows.map((r) => [r.version, r]))
  for (const m of migrations) {
    const r = recorded.get(m.version)
    // Versions 1..22 recorded by an install from before the baseline stand for the baseline.
    if (!r || (m.version <= BASELINE_VERSION && r.name !== m.name)) continue
    if (!m.acceptedChecksums.includes(r.checksum)) throw changedMigration(m, r.checksum)
  }
  const defined = rows[0].definitions
    ? new Map((await client.query<{ name: string; checksum: string }>(READ_APPLIED_DEFINITIONS)).rows.map((r) => [r.name, r.checksum]))
    : new Map<string, string>()
  const known = new Set(migrations.map((m) => m.version))
  // A definition a migration of this build drops is not a newer aizk's: install forgets its record.
  const files = new Set([...definitions.map((d) => d.name), ...migrations.flatMap((m) => m.drops)])
  return {
    installed: true,
    current,
    latest,
    pending: migrations.filter((m) => !recorded.has(m.version)),
    pendingDefinitions: definitions.filter((d) => !isRecorded(d, defined.get(d.name))),
    unknownMigrations: applied.rows
      .filter((r) => r.version > BASELINE_VERSION && !known.has(r.version))
      .map((r) => ({ version: r.version, name: r.name }))
      .sort((a, b) => a.version - b.version),
    unknownDefinitions: [...defined.keys()].filter((name) => !files.has(name)).sort(),
  }
}

/** Recorded with the checksum over what runs, or with the raw one an install before 0.2.0 wrote. */
function isRecorded(d: Definition, recorded: string | undefined): boolean {
  return recorded === d.checksum || recorded === d.rawChecksum
}

export interface MigrateResult {
  applied: { version: number; name: string; ms: number }[]
  /** Definitions (re)applied, e.g. `functions/aizk_pick`. */
  definitions: string[]
  current: number
  adopted: boolean
  /** Jobs whose dedupe key was renamed on adoption (`resolveDuplicateKeys`). */
  resolvedDuplicates: ResolvedDuplicate[]
}

/**
 * Apply every pending migration and changed definition. `dryRun` returns the plan and changes
 * nothing. Adopting a PgQueuer database whose dedupe keys conflict with aizk's index stops before
 * anything is applied, unless `resolveDuplicateKeys` (see dedupe-conflicts.ts).
 */
export async function migrate(client: pg.ClientBase, opts: MigrationOptions & { dryRun?: boolean; resolveDuplicateKeys?: boolean }): Promise<MigrateResult> {
  const adopted = await hasForeignPgQueuer(client)
  const indexPending = await dedupeIndexPending(client)
  if (indexPending && !opts.resolveDuplicateKeys) {
    const conflicts = await findDedupeConflicts(client)
    if (conflicts.length) throw dedupeConflictError(conflicts)
  }
  if (opts.dryRun) {
    const state = await schemaState(client, opts)
    return {
      applied: state.pending.map((m) => ({ version: m.version, name: m.name, ms: 0 })),
      definitions: state.pendingDefinitions.map((d) => d.name),
      current: state.current,
      adopted,
      resolvedDuplicates: [],
    }
  }
  await client.query(TAKE_INSTALL_LOCK, LOCK_KEY)
  try {
    const state = await schemaState(client, opts)
    if (isAhead(state)) throw newerSchema(state)
    if (state.pending.length === 0 && state.pendingDefinitions.length === 0) {
      return { applied: [], definitions: [], current: state.current, adopted, resolvedDuplicates: [] }
    }
    for (const m of state.pending) if (m.commitFirst) await inTransaction(client, m.name, () => client.query(m.commitFirst))
    const all = loadDefinitions(opts.appRole)
    const pendingNames = new Set(state.pendingDefinitions.map((d) => d.name))
    const done = new Set<string>()
    const applyDefinitions = async (defs: Definition[]) => {
      for (const d of defs) {
        if (done.has(d.name) || !pendingNames.has(d.name)) continue
        await client.query(d.sql).catch((err) => {
          throw new DatabaseError(`definition ${d.name} failed: ${(err as Error).message}`, 'nothing was applied; fix the file and run `aizk install` again')
        })
        done.add(d.name)
      }
    }
    const applied: MigrateResult['applied'] = []
    let resolvedDuplicates: ResolvedDuplicate[] = []
    await inTransaction(client, 'the schema', async () => {
      await client.query(CREATE_SCHEMA_VERSION)
      await client.query(CREATE_SCHEMA_DEFINITION)
      for (const m of state.pending) {
        const started = performance.now()
        await applyDefinitions(withRequirements(all, m.requires))
        if (m.checks.includes('dedupe-keys')) resolvedDuplicates = await checkDedupeKeys(client, opts.resolveDuplicateKeys === true)
        await client.query(m.sql).catch((err) => {
          throw new DatabaseError(`migration ${m.name} failed: ${(err as Error).message}`, 'nothing was applied; fix the cause and run `aizk install` again')
        })
        await client.query(RECORD_MIGRATION, [m.version, m.name, m.checksum])
        applied.push({ version: m.version, name: m.name, ms: Math.round(performance.now() - started) })
      }
      await applyDefinitions(all)
      await client.query(RECORD_DEFINITIONS, [all.map((d) => d.name), all.map((d) => d.checksum)])
      // A definition whose file is gone was dropped by a migration; its record goes too.
      await client.query(FORGET_REMOVED_DEFINITIONS, [all.map((d) => d.name)])
    })
    return { applied, definitions: [...done], current: state.pending.at(-1)?.version ?? state.current, adopted, resolvedDuplicates }
  } finally {
    await client.query(RELEASE_INSTALL_LOCK, LOCK_KEY).catch(() => {})
  }
}

async function inTransaction(client: pg.ClientBase, what: string, fn: () => Promise<unknown>): Promise<void> {
  await client.query('begin')
  try {
    await fn()
    await client.query('commit')
  } catch (err) {
    await client.query('rollback').catch(() => {})
    if (err instanceof AizkError) throw err
    throw new DatabaseError(`installing ${what} failed: ${(err as Error).message}`, 'nothing of it was applied; fix the cause and run `aizk install` again')
  }
}

/** Before aizk's held-aware dedupe index is built on an existing queue: no key may be held twice. */
async function checkDedupeKeys(client: pg.ClientBase, resolve: boolean): Promise<ResolvedDuplicate[]> {
  if (!(await dedupeIndexPending(client))) return []
  // Writers wait until the index exists, so no new duplicate slips in between.
  await client.query(LOCK_QUEUE_FOR_DEDUPE_INDEX)
  if (resolve) return resolveDedupeConflicts(client)
  const conflicts = await findDedupeConflicts(client)
  if (conflicts.length) throw dedupeConflictError(conflicts)
  return []
}

/** A newer aizk installed migrations or definitions this build does not have. */
export function isAhead(state: SchemaState): boolean {
  return state.unknownMigrations.length > 0 || state.unknownDefinitions.length > 0
}

export function describeAhead(state: SchemaState): string {
  const names = [...state.unknownMigrations.map((m) => `migration ${m.name}`), ...state.unknownDefinitions.map((d) => `definition ${d}`)]
  return names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ')
}

function newerSchema(state: SchemaState): DatabaseError {
  return new DatabaseError(
    `a newer aizk installed this database's schema (${describeAhead(state)}); installing this version's files would put back older definitions that its workers call`,
    "run `aizk install` with the newer aizk (docs/deployment.md#upgrading); this version's workers run on the newer schema for one release",
  )
}

function beforeBaseline(current: number): DatabaseError {
  return new DatabaseError(
    `this database's aizk schema is at version ${current}, before the 0.1.0 baseline (version ${BASELINE_VERSION})`,
    `upgrade it to version ${BASELINE_VERSION} with the aizk build that installed it, then run \`aizk install\` with this one`,
  )
}

function changedMigration(m: Migration, recorded: string): SchemaChangedError {
  return new SchemaChangedError(
    `migration ${m.name} was applied with checksum ${recorded}, but its file now has ${m.checksum}`,
    'an applied migration must not change: restore the file and put the change in a new migration (docs/schema.md#how-to-change-the-schema)',
  )
}

/** PgQueuer's table exists but aizk never installed here: install adopts it. */
async function hasForeignPgQueuer(client: pg.ClientBase): Promise<boolean> {
  const { rows } = await client.query<{ pgq: boolean; aizk: boolean }>(READ_INSTALL_STATE)
  return rows[0].pgq && !rows[0].aizk
}
