/**
 * The operator's job filter input read back into the core's JobFilter with one set of checks,
 * whether it came as command flags (src/cli/job-filter-flags.ts) or as dashboard form fields:
 * bad input fails before anything is read or written.
 */

import { UsageError } from '../errors.js'
import type { JobFilter } from '../queue/job-filter.js'
import { MAX_DAYS } from '../settings-types.js'
import { MAX_AGE_MS, parseDuration } from './duration.js'
import { checkEntrypointName } from './entrypoints.js'
import { jobId } from './numbers.js'

export interface JobFilterFlagValues {
  entrypoint?: string[]
  id?: string[]
  'older-than'?: string
  limit?: number
}

/** The filter and limit the flags ask for; a usage error (exit 2) on anything malformed. */
export function readJobFilter(flags: JobFilterFlagValues): { filter: JobFilter; ids: string[]; limit: number | undefined } {
  const limit = flags.limit
  for (const ep of flags.entrypoint ?? []) checkEntrypointName(ep)
  const ids = (flags.id ?? []).map((id) => jobId(id))
  const olderThanSeconds = flags['older-than'] === undefined ? undefined : readAge(flags['older-than'], '--older-than')
  return { filter: { entrypoints: flags.entrypoint, ids: ids.length ? ids : undefined, olderThanSeconds }, ids, limit }
}

/** An age such as 30m, 2h or 7d, in seconds, at most 100 years; `what` names where it was given. */
export function readAge(text: string, what: string): number {
  const ms = parseDuration(text)
  if (ms === null) throw new UsageError(`${what} "${text}" is not a duration`, 'use a duration such as 30m, 2h or 7d')
  if (ms > MAX_AGE_MS)
    throw new UsageError(`${what} "${text}" is longer than ${MAX_DAYS} days (100 years)`, `use a duration of at most ${MAX_DAYS}d, such as 30m, 2h or 7d`)
  return ms / 1000
}

/** A job priority (a whole number, possibly negative); `what` names where it was given. */
export function readPriority(text: string, what: string): number {
  if (!/^-?\d{1,9}$/.test(text.trim())) throw new UsageError(`${what} "${text}" is not a whole number`, 'priorities are integers, as `aizk status` shows them')
  return Number(text)
}
