/**
 * Numbered, forward-only migrations (src/db/migrations/NNNN_name.sql), applied in order under
 * a session advisory lock and recorded in aizk_schema_version. Each runs in its own transaction,
 * so a new enum value committed by one is usable by the next. Two installs at once: the second
 * waits for the lock, then finds nothing to do.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type pg from 'pg'
import { AizkError, DatabaseError } from '../errors.js'
import { dedupeConflictError, dedupeIndexPending, findDedupeConflicts, type ResolvedDuplicate, resolveDedupeConflicts } from './dedupe-conflicts.js'
import { CREATE_SCHEMA_VERSION, LOCK_QUEUE_FOR_DEDUPE_INDEX, READ_APPLIED_VERSIONS, READ_INSTALL_STATE, RECORD_MIGRATION, RELEASE_INSTALL_LOCK, SCHEMA_VERSION_EXISTS, TAKE_INSTALL_LOCK } from './sql/migrate.js'

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')
/** pg_advisory_lock key: 'aizk' 'migr' as two int4s. */
const LOCK_KEY: [number, number] = [0x61697a6b, 0x6d696772]

export interface Migration {
  version: number
  name: string
  sql: string
  checksum: string
}

export interface MigrationOptions {
  appRole: string
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`
}

export function loadMigrations(opts: MigrationOptions): Migration[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort()
    .map((file) => {
      const raw = readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8')
      const sql = raw
        .replaceAll('{{app_role_literal}}', opts.appRole.replace(/'/g, "''"))
        .replaceAll('{{app_role}}', quoteIdent(opts.appRole))
      return {
        version: Number(file.slice(0, 4)),
        name: file.replace(/\.sql$/, ''),
        sql,
        checksum: createHash('sha256').update(raw).digest('hex').slice(0, 16),
      }
    })
}

export interface SchemaState {
  installed: boolean
  current: number
  latest: number
  pending: Migration[]
}

export async function schemaState(client: pg.ClientBase, opts: MigrationOptions): Promise<SchemaState> {
  const migrations = loadMigrations(opts)
  const latest = migrations.at(-1)?.version ?? 0
  const { rows } = await client.query<{ exists: boolean }>(SCHEMA_VERSION_EXISTS)
  if (!rows[0].exists) return { installed: false, current: 0, latest, pending: migrations }
  const applied = await client.query<{ version: number }>(READ_APPLIED_VERSIONS)
  const done = new Set(applied.rows.map((r) => r.version))
  const current = Math.max(0, ...done)
  return { installed: done.size > 0, current, latest, pending: migrations.filter((m) => !done.has(m.version)) }
}

export interface MigrateResult {
  applied: { version: number; name: string; ms: number }[]
  current: number
  adopted: boolean
  /** Jobs whose dedupe key was renamed on adoption (`resolveDuplicateKeys`). */
  resolvedDuplicates: ResolvedDuplicate[]
}

/** The migration that builds aizk's held-aware dedupe index (0002). */
const DEDUPE_INDEX = 'aizk_dedupe_key_live'

/**
 * Apply every pending migration. `dryRun` returns the plan and changes nothing. Adopting a
 * PgQueuer database whose dedupe keys conflict with aizk's index stops before anything is
 * applied, unless `resolveDuplicateKeys` (see dedupe-conflicts.ts).
 */
export async function migrate(
  client: pg.ClientBase,
  opts: MigrationOptions & { dryRun?: boolean; resolveDuplicateKeys?: boolean },
): Promise<MigrateResult> {
  const adopted = await hasForeignPgQueuer(client)
  const indexPending = await dedupeIndexPending(client)
  if (indexPending && !opts.resolveDuplicateKeys) {
    const conflicts = await findDedupeConflicts(client)
    if (conflicts.length) throw dedupeConflictError(conflicts)
  }
  if (opts.dryRun) {
    const state = await schemaState(client, opts)
    return { applied: state.pending.map((m) => ({ version: m.version, name: m.name, ms: 0 })), current: state.current, adopted, resolvedDuplicates: [] }
  }
  let resolvedDuplicates: ResolvedDuplicate[] = []
  await client.query(TAKE_INSTALL_LOCK, LOCK_KEY)
  try {
    await client.query(CREATE_SCHEMA_VERSION)
    const state = await schemaState(client, opts)
    const applied: MigrateResult['applied'] = []
    for (const m of state.pending) {
      const started = performance.now()
      await client.query('begin')
      try {
        if (m.sql.includes(`CREATE UNIQUE INDEX IF NOT EXISTS ${DEDUPE_INDEX}`) && (await dedupeIndexPending(client))) {
          // Writers wait until the index exists, so no new duplicate slips in between.
          await client.query(LOCK_QUEUE_FOR_DEDUPE_INDEX)
          if (opts.resolveDuplicateKeys) resolvedDuplicates = await resolveDedupeConflicts(client)
          else {
            const conflicts = await findDedupeConflicts(client)
            if (conflicts.length) throw dedupeConflictError(conflicts)
          }
        }
        await client.query(m.sql)
        await client.query(RECORD_MIGRATION, [
          m.version,
          m.name,
          m.checksum,
        ])
        await client.query('commit')
      } catch (err) {
        await client.query('rollback').catch(() => {})
        if (err instanceof AizkError) throw err
        throw new DatabaseError(`migration ${m.name} failed: ${(err as Error).message}`, 'nothing of it was applied; fix the cause and run `aizk install` again')
      }
      applied.push({ version: m.version, name: m.name, ms: Math.round(performance.now() - started) })
    }
    return { applied, current: state.pending.at(-1)?.version ?? state.current, adopted, resolvedDuplicates }
  } finally {
    await client.query(RELEASE_INSTALL_LOCK, LOCK_KEY).catch(() => {})
  }
}

/** PgQueuer's table exists but aizk never installed here: install adopts it. */
async function hasForeignPgQueuer(client: pg.ClientBase): Promise<boolean> {
  const { rows } = await client.query<{ pgq: boolean; aizk: boolean }>(
    READ_INSTALL_STATE,
  )
  return rows[0].pgq && !rows[0].aizk
}
