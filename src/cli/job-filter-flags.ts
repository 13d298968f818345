/**
 * The flags requeue, discard and cancel share (entrypoint, id, older-than, limit, dry-run, yes),
 * built per command so each help text names the rows it acts on, and read back into the core's
 * JobFilter with one set of checks: bad input fails before anything is read or written.
 */
import { Flags } from '@oclif/core'
import type { JobFilter } from '../queue/job-filter.js'
import { parseDuration } from './duration.js'
import { checkEntrypointName } from './entrypoints.js'
import { wholeFlag } from './flags.js'
import { jobId } from './numbers.js'
import { UsageError } from '../errors.js'

/** `rows`: what the command acts on, as in "Only this held job id". */
export function jobFilterFlags(rows: string, limitDefault: string) {
  return {
    entrypoint: Flags.string({
      char: 'e',
      description:
        'Only this entrypoint (repeatable): one this installation registers (`aizk jobs types`), or one with jobs in the queue (`aizk status`, where a PgQueuer worker\'s appear); any other is refused (exit 2).',
      multiple: true,
    }),
    id: Flags.string({ description: `Only this ${rows} job id (repeatable).`, multiple: true }),
    'older-than': Flags.string({ description: `Only ${rows} jobs unchanged for at least this long (30m, 2h, 7d).` }),
    limit: wholeFlag({ char: 'n', description: `At most this many jobs (default: ${limitDefault}).`, example: '--limit 100' }),
    'dry-run': Flags.boolean({ description: 'List what would be done; change nothing.', default: false }),
  }
}

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

/** An age such as 30m, 2h or 7d, in seconds; `what` names where it was given. */
const MAX_AGE_MS = 36500 * 24 * 3600 * 1000

export function readAge(text: string, what: string): number {
  const ms = parseDuration(text)
  if (ms === null) throw new UsageError(`${what} "${text}" is not a duration`, 'use a duration such as 30m, 2h or 7d')
  // PostgreSQL's intervals end near 178 million years; no job is older than a century.
  if (ms > MAX_AGE_MS) throw new UsageError(`${what} "${text}" is too long`, 'use at most 36500d (a hundred years)')
  return ms / 1000
}

/** A job priority (a whole number, possibly negative); `what` names where it was given. */
export function readPriority(text: string, what: string): number {
  if (!/^-?\d{1,9}$/.test(text.trim())) throw new UsageError(`${what} "${text}" is not a whole number`, 'priorities are integers, as `aizk status` shows them')
  return Number(text)
}
