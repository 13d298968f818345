/**
 * The composer of AIZK_* settings: each feature declares its own next to its code
 * (`src/<feature>/settings.ts`: type, default, range, description), and this file joins those
 * groups into one zod schema, parsed once into one frozen, fully typed object. Only the CLI's
 * entry points hand it the environment (docs/architecture.md#settings); the job registry adds the
 * settings its jobs declare (a scheduled job's `<name>Cron` / `<name>Enabled`).
 */
import { z } from 'zod'
import { backupSettings } from './backup/settings.js'
import { chunkingSettings } from './chunking/settings.js'
import { contentSettings } from './content/settings.js'
import { convertSettings } from './convert/settings.js'
import { dashboardSettings } from './dashboard/settings.js'
import { databaseSettings } from './db/settings.js'
import { embeddingSettings } from './embedding/settings.js'
import { ConfigError } from './errors.js'
import { llmSettings } from './graph/extract/settings.js'
import { graphSettings } from './graph/settings.js'
import { ingestSettings } from './ingest/settings.js'
import { inventorySettings } from './jobs/inventory/settings.js'
import { queueSettings } from './queue/settings.js'
import { schedulerSettings } from './scheduler/settings.js'
import { scopeSettings } from './scope/settings.js'
import type { SettingDeclaration, SettingsGroup } from './settings-types.js'
import { defaultLocalQueueSize, workerSettings } from './worker/settings.js'

export { FOREIGN_HEARTBEAT_TIMEOUT_SECONDS } from './queue/settings.js'
export { DEFAULT_SYSTEM_USER_ID } from './scope/settings.js'
export { defaultLocalQueueSize, pickCeiling } from './worker/settings.js'

/** Every feature's settings, in the order operators read them (`aizk settings`, docs/settings.md). */
export const SETTING_GROUPS = [
  databaseSettings,
  scopeSettings,
  workerSettings,
  queueSettings,
  schedulerSettings,
  inventorySettings,
  contentSettings,
  convertSettings,
  chunkingSettings,
  embeddingSettings,
  llmSettings,
  graphSettings,
  backupSettings,
  ingestSettings,
  dashboardSettings,
] as const

type SchemasOf<S extends Record<string, SettingDeclaration>> = { [K in keyof S]: S[K]['schema'] }
type Settings_<G> = G extends SettingsGroup<infer S> ? SchemasOf<S> : never
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never
type CoreShape = UnionToIntersection<Settings_<(typeof SETTING_GROUPS)[number]>>

function schemasOf(group: SettingsGroup): Record<string, z.ZodTypeAny> {
  return Object.fromEntries(Object.entries(group.settings).map(([key, d]) => [key, d.schema]))
}

const coreShape = Object.assign({}, ...SETTING_GROUPS.map(schemasOf)) as CoreShape
const declarations: Readonly<Record<string, SettingDeclaration & { group: string }>> = Object.fromEntries(
  SETTING_GROUPS.flatMap((g: SettingsGroup) => Object.entries(g.settings).map(([key, d]) => [key, { ...d, group: g.name }])),
)

export type CoreSettings = z.output<z.ZodObject<CoreShape>>
/** The environment the settings were parsed from, as the CLI handed it in (frozen copy). */
export type Environment = Readonly<Record<string, string | undefined>>
/** A core setting by name, and those that are whole numbers (a job's `concurrencySetting`). */
export type SettingKey = keyof CoreSettings
export type NumberSettingKey = { [K in SettingKey]-?: Exclude<CoreSettings[K], undefined> extends number ? K : never }[SettingKey]

/**
 * What a scheduled job declares for itself (scheduled-job.ts derives both names from its class).
 * Other settings a job module declares are in the object too, untyped: the module reads its own by key.
 */
export type ScheduledJobSettings = { readonly [key: `${string}Cron`]: string | undefined } & { readonly [key: `${string}Enabled`]: boolean | undefined }

/**
 * Core settings plus the pairs the registry's scheduled jobs declared, and `env`: the
 * environment itself, for what is no setting (XDG_DATA_HOME) and for child processes (pg_ctl,
 * pg_dump), so no core module reads `process.env`. A misspelt key does not compile.
 */
export type Settings = Readonly<CoreSettings & { env: Environment }> & ScheduledJobSettings

/** What a job registry adds to the schema: the settings its jobs declared, and their checks. */
export interface SettingsSource {
  settingsShape(): Readonly<Record<string, z.ZodTypeAny>>
  /** Checks across settings (one job's setting needing another); each returns its problems. */
  settingsChecks(): readonly ((settings: Settings) => string[])[]
  secretSettings(): ReadonlySet<string>
}

export interface ParseOptions {
  /** The registry whose jobs' settings join the schema; without it, only the core settings. */
  registry?: SettingsSource
  /** Values given another way than a variable (worker flags), by key: they win over the variable. */
  overrides?: Readonly<Partial<Record<SettingKey, unknown>>> & Readonly<Record<string, unknown>>
  /** How an override was given, for messages: `{ heartbeatTimeoutSeconds: '--heartbeat-timeout' }`. */
  sources?: Readonly<Record<string, string>>
}

export function isSecretSetting(key: string, registry?: SettingsSource): boolean {
  return declarations[key]?.secret === true || registry?.secretSettings().has(key) === true || /(password|secret|apikey|token)/i.test(key)
}

/** camelCase key -> AIZK_SCREAMING_SNAKE variable. */
export function envName(key: string): string {
  return `AIZK_${key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}`
}

/** Variables oclif reads itself under the bin's prefix; allowed, never reported as unknown. */
const OCLIF_RESERVED = new Set([
  'DEBUG',
  'DATA_DIR',
  'CONFIG_DIR',
  'CACHE_DIR',
  'SHELL',
  'REDIRECTED',
  'CLI_ASCII',
  'CONTENT_TYPE',
  'DISABLE_THEME',
  'TEST_DATABASE_URL',
])

function fullShape(registry?: SettingsSource): Record<string, z.ZodTypeAny> {
  const extra = registry?.settingsShape() ?? {}
  for (const key of Object.keys(extra))
    if (key in coreShape || key === 'env') throw new ConfigError([`${envName(key)}: declared by a job but is a core setting`])
  return { ...coreShape, ...extra }
}

/**
 * The one pass over the environment: variables, then overrides on top, through one zod schema;
 * every problem is reported at once (ConfigError, exit 3). The result is frozen: whoever needs a
 * different value passes an override here instead of editing a copy.
 */
export function parseSettings(env: NodeJS.ProcessEnv, opts: ParseOptions = {}): Settings {
  const shape = fullShape(opts.registry)
  const input: Record<string, unknown> = {}
  for (const key of Object.keys(shape)) {
    const value = env[envName(key)]
    if (value !== undefined) input[key] = value
  }
  for (const [key, value] of Object.entries(opts.overrides ?? {})) if (value !== undefined) input[key] = value
  const given = (key: string) => (opts.overrides as Record<string, unknown> | undefined)?.[key] !== undefined && opts.sources?.[key]
  const nameOf = (key: string) => (given(key) ? `${opts.sources?.[key]} (${envName(key)})` : envName(key))
  const result = z.object(shape).safeParse(input)
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? '')
      const message = issue.code === 'invalid_type' && issue.received === 'undefined' ? 'is required' : issue.message
      return `${nameOf(key)}: ${message}`
    })
    throw new ConfigError(problems)
  }
  const parsed = result.data as CoreSettings & { env: Environment }
  parsed.env = Object.freeze({ ...env })
  // Derived once, after overrides: an explicit concurrency (variable or flag) always wins.
  parsed.queueConcurrentTasks ??= parsed.queueBatchSize * 4
  parsed.queueLocalSize ??= defaultLocalQueueSize(parsed.queueBatchSize)
  const settings = Object.freeze(parsed) as Settings
  const crossProblems = (opts.registry?.settingsChecks() ?? []).flatMap((check) => check(settings))
  if (crossProblems.length) throw new ConfigError(crossProblems)
  for (const group of SETTING_GROUPS as readonly SettingsGroup[]) {
    const problems = group.check?.(settings as unknown as Parameters<NonNullable<SettingsGroup['check']>>[0], nameOf) ?? []
    if (problems.length) throw new ConfigError(problems)
  }
  return settings
}

/** AIZK_ variables in `env` that are no setting of the schema (typos), for a warning. */
export function unknownSettingVariables(env: NodeJS.ProcessEnv, registry?: SettingsSource): string[] {
  const known = new Set(Object.keys(fullShape(registry)).map(envName))
  return Object.keys(env).filter((name) => name.startsWith('AIZK_') && !known.has(name) && !OCLIF_RESERVED.has(name.slice(5)))
}

/** The job modules to load, read before the full schema exists (their jobs' settings join it). */
export function jobModulePaths(env: NodeJS.ProcessEnv): string[] {
  return (env[envName('workerJobModules')] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
}

/** One line for a setting: its feature's, or for a scheduled job's pair, said from its name. */
export function describeSetting(key: string): string | undefined {
  if (declarations[key]) return declarations[key].description
  const pair = key.match(/^(.+)(Cron|Enabled)$/)
  if (!pair) return undefined
  const pass = pair[1].replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
  return pair[2] === 'Cron' ? `Cron of the \`${pass}\` pass (\`off\` disables it).` : `Whether the \`${pass}\` pass runs.`
}

/** The group of the settings jobs declare for themselves (a scheduled pass's cron and switch). */
export const SCHEDULES_GROUP = { name: 'schedules', title: 'Scheduled passes' } as const

export interface SettingRow {
  key: string
  variable: string
  value: unknown
  default: unknown
  description: string
  /** The feature group's name; SCHEDULES_GROUP for what a job (module) declared. */
  group: string
  firstRun: boolean
}

/** Effective settings with their variables, secrets masked, for `aizk settings` and docs/settings.md. */
export function describeSettings(settings: Settings, registry?: SettingsSource): SettingRow[] {
  const shape = fullShape(registry)
  const defaults = z.object(shape).safeParse({})
  const defaultValues = defaults.success ? (defaults.data as Record<string, unknown>) : {}
  const values = settings as unknown as Readonly<Record<string, unknown>>
  return Object.keys(shape)
    .sort()
    .map((key) => {
      const value = values[key]
      const secret = isSecretSetting(key, registry)
      return {
        key,
        variable: envName(key),
        value: secret && value !== undefined ? maskSecret(String(value)) : (value ?? null),
        default: secret ? null : (defaultValues[key] ?? null),
        description: describeSetting(key) ?? '',
        group: declarations[key]?.group ?? SCHEDULES_GROUP.name,
        firstRun: declarations[key]?.firstRun === true,
      }
    })
}

function maskSecret(value: string): string {
  try {
    const url = new URL(value)
    if (url.password) url.password = '****'
    return url.toString()
  } catch {
    return '****'
  }
}
