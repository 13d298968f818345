/**
 * zod field builders for settings read from environment strings. Each coerces explicitly:
 * "false" is false, "abc" is not a number, and every message says what was expected.
 */
import { z } from 'zod'
import { validateCron } from './cron.js'

const TRUE = new Set(['true', '1', 'yes', 'on'])
const FALSE = new Set(['false', '0', 'no', 'off'])

export function boolSetting(defaultValue: boolean) {
  return z
    .union([z.boolean(), z.string()])
    .default(defaultValue)
    .transform((value, ctx) => {
      if (typeof value === 'boolean') return value
      const v = value.trim().toLowerCase()
      if (TRUE.has(v)) return true
      if (FALSE.has(v)) return false
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `expected true or false, got "${value}"` })
      return z.NEVER
    })
}

export function intSetting(defaultValue: number | undefined, opts: { min?: number; max?: number } = {}) {
  const min = opts.min ?? 0
  const base = z.union([z.number(), z.string()])
  const withDefault = defaultValue === undefined ? base.optional() : base.default(defaultValue)
  return withDefault.transform((value, ctx) => {
    if (value === undefined) return undefined as unknown as number
    const n = typeof value === 'number' ? value : /^\s*-?\d+\s*$/.test(value) ? Number(value) : Number.NaN
    if (!Number.isInteger(n)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `expected a whole number, got "${value}"` })
      return z.NEVER
    }
    if (n < min || (opts.max !== undefined && n > opts.max)) {
      const range = opts.max === undefined ? `at least ${min}` : `between ${min} and ${opts.max}`
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `expected a whole number ${range}, got ${n}` })
      return z.NEVER
    }
    return n
  })
}

export function numberSetting(defaultValue: number, opts: { min?: number; max?: number } = {}) {
  const min = opts.min ?? 0
  return z
    .union([z.number(), z.string()])
    .default(defaultValue)
    .transform((value, ctx) => {
      const n = typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value)
      if (!Number.isFinite(n) || n < min || (opts.max !== undefined && n > opts.max)) {
        const range = opts.max === undefined ? `of at least ${min}` : `between ${min} and ${opts.max}`
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: `expected a number ${range}, got "${value}"`,
        })
        return z.NEVER
      }
      return n
    })
}

export function listSetting() {
  return z
    .union([z.array(z.string()), z.string()])
    .default([])
    .transform((value) =>
      (Array.isArray(value) ? value : value.split(','))
        .map((s) => s.trim())
        .filter((s) => s.length > 0),
    )
}

export const uuidSetting = (defaultValue: string) =>
  z.string().default(defaultValue).pipe(z.string().uuid({ message: 'expected a UUID' }))

export function urlSetting(protocols: string[]) {
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return undefined
      let url: URL
      try {
        url = new URL(value)
      } catch {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `expected a URL (${protocols.join(' or ')}://...), got a malformed value` })
        return z.NEVER
      }
      if (!protocols.includes(url.protocol.replace(/:$/, ''))) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `expected a ${protocols.join(' or ')} URL, got ${url.protocol}//...` })
        return z.NEVER
      }
      return value
    })
}

/**
 * A cron expression, validated when settings load: five fields, six with seconds first, or an
 * @alias (what pgqueuer_schedules can store; cron-parser alone accepts '* * *'). "off" disables.
 */
export function cronSetting(defaultValue: string) {
  return z
    .string()
    .default(defaultValue)
    .transform((value, ctx) => {
      const v = value.trim()
      if (v === 'off') return v
      try {
        validateCron(v)
      } catch (err) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: `expected a cron expression such as "*/15 * * * *" or "off", got "${value}" (${err instanceof Error ? err.message : err})`,
        })
        return z.NEVER
      }
      return v
    })
}

export const timezoneSetting = () =>
  z
    .string()
    .default('UTC')
    .refine(
      (tz) => {
        try {
          new Intl.DateTimeFormat('en-US', { timeZone: tz })
          return true
        } catch {
          return false
        }
      },
      { message: 'expected an IANA time zone such as "UTC" or "Europe/Berlin"' },
    )
