/**
 * Forward migrations (src/db/migrations/NNNN_name.sql), applied once each in number order. The
 * first is the 0.1.0 baseline; every later one changes tables, indexes, types, roles or data and
 * never defines a function, trigger or policy (those are definitions, docs/schema.md). An applied
 * migration's recorded checksum must match its file, comments and whitespace aside.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { checksum, oncePerProcess, rawChecksum, readDirectives, renderAppRole, splitCommitFirst } from './schema-files.js'

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')
/** The baseline's version: a database installed before the baseline records 1..22 and is at it. */
export const BASELINE_VERSION = 22

export interface Migration {
  version: number
  name: string
  /** Statements run and committed before the migration's transaction (`-- aizk:commit-first`). */
  commitFirst: string
  sql: string
  /** Over what runs, as recorded from 0.2.0 on: comments and whitespace do not change it (docs/schema.md#checksums). */
  checksum: string
  /** What a recorded checksum may be: this one, the file's raw checksum, or the one a release recorded. */
  acceptedChecksums: string[]
  /** Definitions applied before this migration runs. */
  requires: string[]
  /** Safety checks run before this migration (`dedupe-keys`). */
  checks: string[]
  /** Definitions whose objects this migration drops (their files are gone). */
  drops: string[]
}

/**
 * Raw checksums that releases before 0.2.0 recorded for files whose comments were fixed since:
 * such a fix changes no statement, so a database that recorded the older bytes still matches.
 */
const RELEASED_RAW_CHECKSUMS: Record<string, string[]> = {
  '0022_baseline.sql': ['651cfb8881fb7eed'],
  '0026_keys_belong_to_sets.sql': ['8057d7eb999b82ac'],
}

const migrationsOnce = oncePerProcess(readMigrations)

/** Every migration in version order; read once per process. */
export function loadMigrations(opts: { appRole: string }, dir = MIGRATIONS_DIR): Migration[] {
  return migrationsOnce(opts.appRole, dir)
}

function readMigrations(appRole: string, dir: string): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort()
    .map((file) => {
      const raw = readFileSync(path.join(dir, file), 'utf8')
      const { first, rest } = splitCommitFirst(file, renderAppRole(raw, appRole))
      const { requires, checks, drops } = readDirectives(file, raw)
      const overWhatRuns = checksum(raw)
      return {
        version: Number(file.slice(0, 4)),
        name: file.replace(/\.sql$/, ''),
        commitFirst: first,
        sql: rest,
        checksum: overWhatRuns,
        acceptedChecksums: [overWhatRuns, rawChecksum(raw), ...(RELEASED_RAW_CHECKSUMS[file] ?? [])],
        requires,
        checks,
        drops,
      }
    })
}
