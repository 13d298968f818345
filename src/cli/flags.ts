/**
 * The flag builders of the commands: seconds, days and whole-number limits, each checked when
 * oclif parses it. A bad value is a usage error (exit 2) naming the flag, before any work.
 */
import { Flags, type Interfaces } from '@oclif/core'
import { UsageError } from '../errors.js'

interface NumberFlagOptions {
  description: string
  /** How a good value looks, for the hint: "--limit 100". */
  example: string
  min?: number
  char?: 'n'
}

/** A whole number of at least `min` (default 1): limits, batches, caps. */
export function wholeFlag(o: NumberFlagOptions & { default: number }): Interfaces.OptionFlag<number>
export function wholeFlag(o: NumberFlagOptions): Interfaces.OptionFlag<number | undefined>
export function wholeFlag(o: NumberFlagOptions & { default?: number }) {
  const min = o.min ?? 1
  return Flags.custom<number>({
    description: o.description,
    char: o.char,
    parse: async (input, _ctx, flag) => {
      const n = /^\s*-?\d+\s*$/.test(input) ? Number(input) : Number.NaN
      if (!Number.isSafeInteger(n) || n < min) {
        throw new UsageError(`--${flag.name} must be a whole number of at least ${min}, got ${input.trim()}`, `for example ${o.example}`)
      }
      return n
    },
  })(o.default === undefined ? {} : { default: o.default }) as never
}

/** A number of seconds of at least `min` (default 0); fractions allowed. */
export function secondsFlag(o: NumberFlagOptions): Interfaces.OptionFlag<number | undefined> {
  return decimalFlag(o, 'seconds')
}

/** A number of days of at least 0; fractions allowed (0.5 is twelve hours). */
export function daysFlag(o: NumberFlagOptions): Interfaces.OptionFlag<number | undefined> {
  return decimalFlag(o, 'days')
}

function decimalFlag(o: NumberFlagOptions, unit: string) {
  const min = o.min ?? 0
  return Flags.custom<number>({
    description: o.description,
    parse: async (input, _ctx, flag) => {
      const n = /^\s*\d+(\.\d+)?\s*$/.test(input) ? Number(input) : Number.NaN
      if (!Number.isFinite(n) || n < min) {
        throw new UsageError(`--${flag.name} must be a number of ${unit} >= ${min}, got "${input}"`, `for example ${o.example}`)
      }
      return n
    },
  })()
}
