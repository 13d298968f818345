/**
 * Scope sets: the sorted, duplicate-free uuid arrays every memory row carries. The database
 * checks the same shape (aizk_scopes_valid); these helpers build it on the way in, so a set is
 * compared by plain equality everywhere. Lower-case hex sorts like PostgreSQL sorts uuid.
 */
import { UsageError } from '../errors.js'

export type ScopeSet = readonly string[]

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

export function isUuid(value: string): boolean {
  return UUID.test(value)
}

/** Lower-case, validate, sort and de-duplicate. Throws UsageError on anything but UUIDs. */
export function normalizeScopes(scopes: Iterable<string>): string[] {
  const out = new Set<string>()
  for (const raw of scopes) {
    const value = String(raw).trim().toLowerCase()
    if (!UUID.test(value)) throw new UsageError(`scope "${raw}" is not a UUID`, 'scopes are UUIDs')
    out.add(value)
  }
  return [...out].sort()
}

/** The text form used in dedupe keys and logs: sorted scopes joined by ','. */
export function scopeKey(scopes: Iterable<string>): string {
  return normalizeScopes(scopes).join(',')
}

/** The PostgreSQL array literal of a normalized set (only UUIDs, so nothing needs quoting). */
export function scopeArrayLiteral(scopes: ScopeSet): string {
  for (const s of scopes) if (!UUID.test(s)) throw new UsageError(`scope "${s}" is not a UUID`)
  return `{${scopes.join(',')}}`
}

export function sameScopes(a: ScopeSet, b: ScopeSet): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i])
}

/** Compare two sorted sets element by element, as PostgreSQL orders uuid[]. */
export function compareScopes(a: ScopeSet, b: ScopeSet): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1
  }
  return a.length - b.length
}
