/**
 * What migrations and definitions share (docs/schema.md): the `-- aizk:` directives in a file's
 * leading comment block, the app role's placeholders, the checksum recorded for a file, and reading
 * them once per process.
 */
import { createHash } from 'node:crypto'
import { DatabaseError } from '../errors.js'

export interface Directives {
  /** Definitions (`functions/aizk_pick`) that must exist before this file runs. */
  requires: string[]
  /** Safety checks the migrator runs before this migration (`dedupe-keys`). */
  checks: string[]
}

const DIRECTIVE = /^--\s*aizk:(\S+)\s*(.*)$/
const BLOCK_DIRECTIVES = new Set(['commit-first', 'end'])

/** Reads `-- aizk:requires X` and `-- aizk:requires-check X` from the comments a file starts with. */
export function readDirectives(file: string, raw: string): Directives {
  const out: Directives = { requires: [], checks: [] }
  for (const line of raw.split('\n')) {
    const trimmed = line.trim()
    if (trimmed === '') continue
    if (!trimmed.startsWith('--')) break
    const m = DIRECTIVE.exec(trimmed)
    if (!m) continue
    const [, name, arg] = m
    if (name === 'requires') out.requires.push(...arg.split(/[\s,]+/).filter(Boolean))
    else if (name === 'requires-check') out.checks.push(...arg.split(/[\s,]+/).filter(Boolean))
    else if (!BLOCK_DIRECTIVES.has(name)) throw unknownDirective(file, name)
  }
  return out
}

/** The part of a migration between `-- aizk:commit-first` and `-- aizk:end commit-first`, and the rest. */
export function splitCommitFirst(file: string, sql: string): { first: string; rest: string } {
  const start = sql.search(/^--\s*aizk:commit-first\s*$/m)
  if (start < 0) return { first: '', rest: sql }
  const end = sql.search(/^--\s*aizk:end commit-first\s*$/m)
  if (end < start) throw new DatabaseError(`${file}: -- aizk:commit-first has no -- aizk:end commit-first after it`, 'close the block in the file')
  return { first: sql.slice(start, end), rest: sql.slice(0, start) + sql.slice(end) }
}

function unknownDirective(file: string, name: string): DatabaseError {
  return new DatabaseError(
    `${file}: unknown directive -- aizk:${name}`,
    'use requires, requires-check or commit-first (docs/schema.md#directives)',
  )
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`
}

export function renderAppRole(raw: string, appRole: string): string {
  return raw.replaceAll('{{app_role_literal}}', appRole.replace(/'/g, "''")).replaceAll('{{app_role}}', quoteIdent(appRole))
}

export function checksum(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16)
}

/**
 * Schema files ship with the package and do not change while a process runs: what is read from
 * them is read once per process, not at every command's schema check or readiness probe.
 */
export function oncePerProcess<T>(read: (appRole: string, dir: string) => T): (appRole: string, dir: string) => T {
  const loaded = new Map<string, T>()
  return (appRole, dir) => {
    const key = `${dir}\u0000${appRole}`
    let value = loaded.get(key)
    if (value === undefined) {
      value = read(appRole, dir)
      loaded.set(key, value)
    }
    return value
  }
}
