/** Durations (`30s`, `5m`, `2h`, `1d`, `1h30m`, `250ms`) and "when" values (a duration or an ISO timestamp). */
import { UsageError } from '../errors.js'
import { MAX_DAYS, MAX_TIMER_SECONDS } from '../settings-types.js'

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }

/** The longest age a filter takes, 100 years: PostgreSQL's interval arithmetic overflows long past it. */
export const MAX_AGE_MS = MAX_DAYS * UNIT_MS.d

/** The longest wait a Node timer holds (about 24.8 days, as for the settings): past it setTimeout fires at once. */
export const MAX_TIMER_MS = MAX_TIMER_SECONDS * 1000

/** Milliseconds of a duration such as `90s`, `5m`, `1h30m`; null when it is not one. */
export function parseDuration(text: string): number | null {
  const t = text.trim().toLowerCase()
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d|w))+$/.test(t)) return null
  let ms = 0
  for (const [, num, , unit] of t.matchAll(/(\d+(\.\d+)?)(ms|s|m|h|d|w)/g)) ms += Number(num) * UNIT_MS[unit]
  return ms
}

/**
 * A point in time from a flag: a duration from now (`30s`, `2h`) or an ISO 8601 timestamp
 * (`2026-12-01T09:00:00Z`). Anything else is a usage error that shows both forms.
 */
export function parseWhen(text: string, flag: string, now = new Date()): Date {
  const ms = parseDuration(text)
  if (ms !== null) {
    const when = new Date(now.getTime() + ms)
    if (!Number.isFinite(when.getTime()) || when.getUTCFullYear() > 9999) {
      throw new UsageError(
        `${flag} "${text}" is too far ahead: it ends past the year 9999`,
        'use a shorter duration (such as 30s, 2h, 7d) or an ISO timestamp before 10000-01-01',
      )
    }
    return when
  }
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/i.test(text.trim())) {
    const d = new Date(text.trim())
    if (!Number.isNaN(d.getTime())) return d
  }
  throw new UsageError(
    `${flag} "${text}" is neither a duration nor a timestamp`,
    `use a duration such as 30s, 5m, 2h, 1d (from now) or an ISO timestamp such as 2026-12-01T09:00:00Z`,
  )
}
