/** Job ids given as flag values, checked with a useful message (numbers: src/cli/flags.ts). */
import { UsageError } from '../errors.js'

/** A job id (a positive bigint) given as text. */
export function jobId(text: string, flag = '--id'): string {
  const t = text.trim()
  if (!/^[1-9]\d{0,18}$/.test(t) || BigInt(t) > 9223372036854775807n) {
    throw new UsageError(`${flag} "${text}" is not a job id`, 'job ids are positive whole numbers, as `aizk status` and `aizk requeue --dry-run` print them')
  }
  return t
}
