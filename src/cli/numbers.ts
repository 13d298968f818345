/** Flag values that must be positive whole numbers or job ids, checked with a useful message. */
import { UsageError } from '../errors.js'

export function positiveInt(value: number | undefined, flag: string, example: string): number | undefined {
  if (value === undefined) return undefined
  if (!Number.isInteger(value) || value < 1) {
    throw new UsageError(`${flag} must be a whole number of at least 1, got ${value}`, `for example ${example}`)
  }
  return value
}

export function nonNegativeNumber(value: number | undefined, flag: string, example: string): number | undefined {
  if (value === undefined) return undefined
  if (!Number.isFinite(value) || value < 0) throw new UsageError(`${flag} must be a number >= 0, got ${value}`, `for example ${example}`)
  return value
}

/** A job id (a positive bigint) given as text. */
export function jobId(text: string, flag = '--id'): string {
  const t = text.trim()
  if (!/^[1-9]\d{0,18}$/.test(t) || BigInt(t) > 9223372036854775807n) {
    throw new UsageError(`${flag} "${text}" is not a job id`, 'job ids are positive whole numbers, as `aizk status` and `aizk requeue --dry-run` print them')
  }
  return t
}
