/**
 * `aizk install --check`: does the database hold exactly the schema this build installs? Read
 * only (no lock, no write), for a deploy pipeline that must not start this version's workers on a
 * schema they do not match (docs/deployment.md#upgrading).
 */
import type pg from 'pg'
import { type MigrationOptions, schemaState } from './migrate.js'

/**
 * `current`: every migration and definition of this build is applied, nothing else is recorded.
 * `not-installed`: no aizk schema. `behind`: this build has migrations or definitions the database
 * lacks (run this version's `aizk install`). `ahead`: the database records migrations or
 * definitions this build does not have (a newer aizk installed them; this build's workers may run
 * on it for one release, docs/schema.md#rolling-upgrades). A definition that differs is taken as
 * the newer aizk's when the database is ahead; a migration of this build's that is not applied is
 * behind whatever else holds.
 */
export type SchemaMatch = 'current' | 'not-installed' | 'behind' | 'ahead'

export interface SchemaComparison {
  matches: boolean
  state: SchemaMatch
  /** The newest migration the database recorded (0 when not installed). */
  version: number
  /** The newest migration of this build. */
  latest: number
  /** This build's migrations the database has not applied. */
  pendingMigrations: string[]
  /** This build's definitions whose checksum the database does not hold (changed or never applied). */
  changedDefinitions: string[]
  /** Migrations the database recorded that this build does not have. */
  unknownMigrations: string[]
  /** Definitions the database recorded that this build has no file for. */
  unknownDefinitions: string[]
}

export async function compareSchema(client: pg.ClientBase, opts: MigrationOptions): Promise<SchemaComparison> {
  const s = await schemaState(client, opts)
  const pendingMigrations = s.pending.map((m) => m.name)
  const changedDefinitions = s.pendingDefinitions.map((d) => d.name)
  const unknownMigrations = s.unknownMigrations.map((m) => m.name)
  const ahead = unknownMigrations.length > 0 || s.unknownDefinitions.length > 0
  const behind = pendingMigrations.length > 0 || (changedDefinitions.length > 0 && !ahead)
  const state: SchemaMatch = !s.installed ? 'not-installed' : behind ? 'behind' : ahead ? 'ahead' : 'current'
  return {
    matches: state === 'current',
    state,
    version: s.current,
    latest: s.latest,
    pendingMigrations,
    changedDefinitions,
    unknownMigrations,
    unknownDefinitions: s.unknownDefinitions,
  }
}

/** The operator's lines for a mismatch: what differs, one item a line. */
export function describeMismatch(c: SchemaComparison): string[] {
  if (c.state === 'not-installed') return [`the aizk schema is not installed (this aizk installs version ${c.latest})`]
  const lines = [`the database's schema is at version ${c.version}; this aizk's is ${c.latest}`]
  for (const m of c.pendingMigrations) lines.push(`  - migration ${m} is not applied`)
  for (const d of c.changedDefinitions) lines.push(`  - definition ${d} differs from this aizk's file (or was never applied)`)
  for (const m of c.unknownMigrations) lines.push(`  - migration ${m} was applied by a newer aizk`)
  for (const d of c.unknownDefinitions) lines.push(`  - definition ${d} is recorded, but this aizk has no such file`)
  return lines
}
