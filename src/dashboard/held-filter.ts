/**
 * The held page's filter read from a query string or a posted form: entrypoint, priority, age,
 * error text, page size and cursor. Bad values are usage errors naming the field and the fix.
 */

import { UsageError } from '../errors.js'
import { checkEntrypointName } from '../operator/entrypoints.js'
import { readAge, readPriority } from '../operator/job-filter-input.js'
import { jobId } from '../operator/numbers.js'
import type { HeldSearch } from '../queue/held-search.js'
import type { HeldFilter } from './held-page.js'

export const PAGE_LIMIT_MAX = 200
/** Longest error text a filter may search for. */
export const ERROR_TEXT_MAX = 200

export function readHeldFilter(params: URLSearchParams): { filter: HeldFilter; search: HeldSearch; after?: string } {
  const q = (k: string) => {
    const v = params.get(k)?.trim()
    return v ? v : undefined
  }
  const entrypoint = q('entrypoint')
  if (entrypoint) checkEntrypointName(entrypoint)
  const priority = q('priority')
  const priorities = priority ? [readPriority(priority, 'priority')] : undefined
  const older = q('older')
  const olderThanSeconds = older ? readAge(older, 'age') : undefined
  const error = q('error')
  if (error && error.length > ERROR_TEXT_MAX)
    throw new UsageError(`the error text is ${error.length} characters long`, `search for at most ${ERROR_TEXT_MAX}, such as the error's first words`)
  const limitText = q('limit') ?? '50'
  const limit = Number(limitText)
  if (!Number.isInteger(limit) || limit < 1 || limit > PAGE_LIMIT_MAX)
    throw new UsageError(`per page "${limitText}" is out of range`, `use 1 to ${PAGE_LIMIT_MAX}`)
  const afterText = q('after')
  return {
    filter: { state: 'held', entrypoint, priority, olderThan: older, error, limit },
    search: { entrypoints: entrypoint ? [entrypoint] : undefined, priorities, olderThanSeconds, errorText: error },
    after: afterText ? jobId(afterText, 'after') : undefined,
  }
}
