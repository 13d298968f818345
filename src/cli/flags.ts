/**
 * The flag builders of the commands: seconds, days and whole-number limits, each checked when
 * oclif parses it. A bad value is a usage error (exit 2) naming the flag, before any work.
 */
import { Flags, type Interfaces } from '@oclif/core'
import { UsageError } from '../errors.js'
import { MAX_DAYS, MAX_TIMER_SECONDS } from '../settings-types.js'

interface NumberFlagOptions {
  description: string
  /** How a good value looks, for the hint: "--limit 100". */
  example: string
  min?: number
  /** The largest value taken (decimal flags: a timer's limit for seconds, 100 years for days). */
  max?: number
  char?: 'n'
}

/** A whole number of at least `min` (default 1): limits, batches, caps. */
export function wholeFlag(o: NumberFlagOptions & { default: number }): Interfaces.OptionFlag<number>
export function wholeFlag(o: NumberFlagOptions): Interfaces.OptionFlag<number | undefined>
export function wholeFlag(o: NumberFlagOptions & { default?: number }) {
  const min = o.min ?? 1
  const max = o.max ?? Number.MAX_SAFE_INTEGER
  return Flags.custom<number>({
    description: o.description,
    char: o.char,
    parse: async (input, _ctx, flag) => {
      const n = /^\s*-?\d+\s*$/.test(input) ? Number(input) : Number.NaN
      if (!Number.isSafeInteger(n) || n < min || n > max) {
        const range = o.max === undefined ? `of at least ${min}` : `from ${min} to ${max}`
        throw new UsageError(`--${flag.name} must be a whole number ${range}, got ${input.trim()}`, `for example ${o.example}`)
      }
      return n
    },
  })(o.default === undefined ? {} : { default: o.default }) as never
}

/** A number of seconds of at least `min` (default 0), at most a timer's limit; fractions allowed. */
export function secondsFlag(o: NumberFlagOptions): Interfaces.OptionFlag<number | undefined> {
  return decimalFlag({ max: MAX_TIMER_SECONDS, ...o }, 'seconds')
}

/** A number of days from 0 to 100 years; fractions allowed (0.5 is twelve hours). */
export function daysFlag(o: NumberFlagOptions): Interfaces.OptionFlag<number | undefined> {
  return decimalFlag({ max: MAX_DAYS, ...o }, 'days')
}

function decimalFlag(o: NumberFlagOptions, unit: string) {
  const min = o.min ?? 0
  const max = o.max ?? Number.POSITIVE_INFINITY
  return Flags.custom<number>({
    description: o.description,
    parse: async (input, _ctx, flag) => {
      const n = /^\s*\d+(\.\d+)?\s*$/.test(input) ? Number(input) : Number.NaN
      if (!Number.isFinite(n) || n < min || n > max) {
        const range = Number.isFinite(max) ? `from ${min} to ${max}` : `>= ${min}`
        throw new UsageError(`--${flag.name} must be a number of ${unit} ${range}, got "${input}"`, `for example ${o.example}`)
      }
      return n
    },
  })()
}
