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
  /** Definitions this migration drops (`functions/aizk_scopes_proven`): their records are not a newer aizk's. */
  drops: string[]
}

const DIRECTIVE = /^--\s*aizk:(\S+)\s*(.*)$/
const BLOCK_DIRECTIVES = new Set(['commit-first', 'end'])

/** Reads `-- aizk:requires X`, `-- aizk:requires-check X` and `-- aizk:drops X` from the comments a file starts with. */
export function readDirectives(file: string, raw: string): Directives {
  const out: Directives = { requires: [], checks: [], drops: [] }
  for (const line of raw.split('\n')) {
    const trimmed = line.trim()
    if (trimmed === '') continue
    if (!trimmed.startsWith('--')) break
    const m = DIRECTIVE.exec(trimmed)
    if (!m) continue
    const [, name, arg] = m
    if (name === 'requires') out.requires.push(...arg.split(/[\s,]+/).filter(Boolean))
    else if (name === 'requires-check') out.checks.push(...arg.split(/[\s,]+/).filter(Boolean))
    else if (name === 'drops') out.drops.push(...arg.split(/[\s,]+/).filter(Boolean))
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
  return new DatabaseError(`${file}: unknown directive -- aizk:${name}`, 'use requires, requires-check, drops or commit-first (docs/schema.md#directives)')
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`
}

export function renderAppRole(raw: string, appRole: string): string {
  return raw.replaceAll('{{app_role_literal}}', appRole.replace(/'/g, "''")).replaceAll('{{app_role}}', quoteIdent(appRole))
}

/** The checksum of a file as it runs: comments and whitespace do not change it (docs/schema.md#checksums). */
export function checksum(text: string): string {
  return rawChecksum(whatRuns(text))
}

/** The checksum of the file's bytes, as aizk recorded it before 0.2.0: still accepted where recorded. */
export function rawChecksum(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16)
}

/**
 * SQL without its comments, each run of whitespace one space (none next to brackets, commas and
 * semicolons). Quoted strings and identifiers are kept as they are; comments inside a function's
 * body go too, since PL/pgSQL skips them as well.
 */
export function whatRuns(sql: string): string {
  let out = ''
  let code = ''
  let i = 0
  while (i < sql.length) {
    const c = sql[i]
    if (c === "'" || c === '"') {
      const end = closingQuote(sql, i)
      out += squeeze(code) + sql.slice(i, end)
      code = ''
      i = end
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i)
      i = end < 0 ? sql.length : end
      code += ' '
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2)
      i = end < 0 ? sql.length : end + 2
      code += ' '
    } else {
      code += c
      i++
    }
  }
  return (out + squeeze(code)).trim()
}

function squeeze(code: string): string {
  return code.replace(/\s+/g, ' ').replace(/ ?([(),;]) ?/g, '$1')
}

/** The index after the quote that closes the one at `start` (a doubled quote stays inside). */
function closingQuote(sql: string, start: number): number {
  const q = sql[start]
  let i = start + 1
  while (i < sql.length) {
    if (sql[i] === q) {
      if (sql[i + 1] !== q) return i + 1
      i += 2
    } else i++
  }
  return sql.length
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
