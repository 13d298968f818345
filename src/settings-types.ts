/**
 * zod field builders for settings read from environment strings. Each coerces explicitly:
 * "false" is false, "abc" is not a number, and every message says what was expected.
 */
import { statSync } from 'node:fs'
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

/** The largest whole number a setting takes unless it says otherwise: PostgreSQL's int4, where most of them go. */
export const MAX_INT_SETTING = 2_147_483_647

/**
 * The longest wait, in seconds, a setting that is also a Node timer may ask for: longer, setTimeout
 * fires at once (TimeoutOverflowWarning). About 24.8 days.
 */
export const MAX_TIMER_SECONDS = 2_147_483

/** Days a retention or an age may span: 100 years (a cutoff further back is "keep everything"). */
export const MAX_DAYS = 36_500

export function intSetting(defaultValue: number | undefined, opts: { min?: number; max?: number } = {}) {
  const min = opts.min ?? 0
  const max = opts.max ?? MAX_INT_SETTING
  const base = z.union([z.number(), z.string()])
  const withDefault = defaultValue === undefined ? base.optional() : base.default(defaultValue)
  return withDefault.transform((value, ctx) => {
    if (value === undefined) return undefined as unknown as number
    const n = typeof value === 'number' ? value : /^\s*-?\d+\s*$/.test(value) ? Number(value) : Number.NaN
    if (!Number.isInteger(n)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `expected a whole number, got "${value}"` })
      return z.NEVER
    }
    if (n < min || n > max) {
      const range = opts.max !== undefined ? `between ${min} and ${max}` : n < min ? `at least ${min}` : `at most ${max}`
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `expected a whole number ${range}, got ${typeof value === 'string' ? value.trim() : n}` })
      return z.NEVER
    }
    return n
  })
}

/** A number (fractions allowed) between `min` (default 0) and `max` (default none), both included. */
export function numberSetting(defaultValue: number, opts: { min?: number; max?: number } = {}) {
  const min = opts.min ?? 0
  return z
    .union([z.number(), z.string()])
    .default(defaultValue)
    .transform((value, ctx) => {
      const n = typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value)
      if (!Number.isFinite(n) || n < min || (opts.max !== undefined && n > opts.max)) {
        const range = opts.max === undefined ? `of at least ${min}` : `between ${min} and ${opts.max}`
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `expected a number ${range}, got "${value}"` })
        return z.NEVER
      }
      return n
    })
}

/**
 * A folder: unset (or empty) is unset, a path that does not exist yet is fine (it is created on
 * first use), one that exists must be a folder. Checked when settings load, so a file given by
 * mistake (AIZK_DATA_DIR=/proc/self/mem) is a configuration error, not a failure deep in a command.
 */
export function folderSetting() {
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return undefined
      try {
        const stat = statSync(value)
        if (!stat.isDirectory()) {
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            message: `expected a folder, but ${value} is ${stat.isFile() ? 'a file' : 'not a folder (a device, pipe or socket)'}`,
          })
          return z.NEVER
        }
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: `expected a folder, but part of ${value} is a file` })
          return z.NEVER
        }
        // Missing (created on first use) or unreadable: whoever uses it reports that.
      }
      return value
    })
}

export function listSetting() {
  return z
    .union([z.array(z.string()), z.string()])
    .default([])
    .transform((value) => (Array.isArray(value) ? value : value.split(',')).map((s) => s.trim()).filter((s) => s.length > 0))
}

export const uuidSetting = (defaultValue: string) =>
  z
    .string()
    .default(defaultValue)
    .pipe(z.string().uuid({ message: 'expected a UUID' }))

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

/** One setting as the feature that reads it declares it: its zod field (type, default, range) and one line for operators. */
export interface SettingDeclaration<T extends z.ZodTypeAny = z.ZodTypeAny> {
  schema: T
  description: string
  /** One of the handful a first run needs: the README lists it as well as docs/settings.md. */
  firstRun?: boolean
  /** Its value is masked in `aizk settings` and its default is not shown (URLs with passwords, keys). */
  secret?: boolean
}

/** What a group's settings parse to, key by key. */
export type DeclaredOutput<S extends Record<string, SettingDeclaration>> = { [K in keyof S]: z.output<S[K]['schema']> }

/**
 * A feature's settings (docs/architecture.md#settings): `src/<feature>/settings.ts` exports one,
 * the composer in src/settings.ts joins them. `check` looks across the group's settings once they
 * parsed (`nameOf` says how each was given: its variable, or a worker flag).
 */
export interface SettingsGroup<S extends Record<string, SettingDeclaration> = Record<string, SettingDeclaration>> {
  name: string
  title: string
  settings: S
  check?(values: DeclaredOutput<S>, nameOf: (key: keyof S & string) => string): string[]
}

export function settingsGroup<const S extends Record<string, SettingDeclaration>>(group: SettingsGroup<S>): SettingsGroup<S> {
  return group
}
