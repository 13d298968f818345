/**
 * The one reader of the environment: a zod schema of AIZK_* settings with the spec's defaults.
 * Scheduled jobs add their `<name>Cron` / `<name>Enabled` pair through `registerSettings`, so a
 * job module's settings are validated with the rest and every problem is reported at once.
 */
import { z } from 'zod'
import { ConfigError } from './errors.js'
import { describeSetting } from './settings-docs.js'
import {
  boolSetting,
  intSetting,
  listSetting,
  numberSetting,
  timezoneSetting,
  urlSetting,
  uuidSetting,
} from './settings-types.js'

/** Default of AIZK_FOREIGN_HEARTBEAT_TIMEOUT_SECONDS (docs/pgqueuer-interop.md). */
export const FOREIGN_HEARTBEAT_TIMEOUT_SECONDS = 600

/** The system user's id when AIZK_SYSTEM_USER_ID is unset (documented in the README). */
export const DEFAULT_SYSTEM_USER_ID = '00000000-0000-4000-a000-000000000001'

const coreShape = {
  databaseUrl: urlSetting(['postgres', 'postgresql']),
  appDatabaseUrl: urlSetting(['postgres', 'postgresql']),
  appRole: z
    .string()
    .default('aizk_app')
    .pipe(z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'expected a lower-case SQL role name')),
  systemUserId: uuidSetting(DEFAULT_SYSTEM_USER_ID),
  timezone: timezoneSetting(),
  dataDir: z.string().optional(),
  /** Unset: 54329, or a free port above it when another program holds 54329 (embedded-port.ts). */
  embeddedPort: intSetting(undefined, { min: 1024, max: 65535 }),

  queueBatchSize: intSetting(64, { min: 1, max: 10000 }),
  queueConcurrentTasks: intSetting(undefined, { min: 1 }),
  workerEntrypoints: listSetting(),
  workerNoScheduler: boolSetting(false),
  workerJobModules: listSetting(),
  workerHealthPort: intSetting(undefined, { min: 0, max: 65535 }),
  /** auto: the live view on a terminal, JSON lines elsewhere; view or json forces one. */
  workerOutput: z.enum(['auto', 'view', 'json']).default('auto'),
  /** One JSON line per job event; off keeps only batch, worker and schedule lines (high throughput). */
  workerLogJobs: boolSetting(true),
  heartbeatIntervalSeconds: numberSetting(5, { min: 0.05 }),
  heartbeatTimeoutSeconds: numberSetting(30, { min: 0.1 }),
  /** Picks of queue managers aizk does not know (PgQueuer workers): stale only past this; 0 = never. */
  foreignHeartbeatTimeoutSeconds: numberSetting(FOREIGN_HEARTBEAT_TIMEOUT_SECONDS, { min: 0 }),
  /** Write `queued` and `picked` log rows as PgQueuer does (its job_status and percentiles see aizk's jobs). */
  queueLogParity: boolSetting(false),
  shutdownTimeoutSeconds: numberSetting(25, { min: 0 }),
  completionFlushMs: intSetting(15, { min: 0, max: 10000 }),
  workerStartupWaitSeconds: numberSetting(60, { min: 0 }),
  pollIntervalSeconds: numberSetting(1, { min: 0.01 }),
  retryBaseSeconds: numberSetting(2, { min: 0 }),
  retryMaxSeconds: numberSetting(600, { min: 0 }),
  /** A handler running longer is failed (retried or held) and its slot freed; 0 = no limit. */
  jobTimeoutSeconds: numberSetting(1800, { min: 0 }),

  doclingConcurrency: intSetting(4, { min: 0 }),
  graphBuildConcurrency: intSetting(4, { min: 0 }),
  chunkDispatchBatch: intSetting(512, { min: 1 }),
  chunkRecoveryBatch: intSetting(512, { min: 1 }),
  chunkRecoveryMaxCycles: intSetting(3, { min: 0 }),
  cleanupLogRetentionDays: numberSetting(7, { min: 0 }),
  cleanupLogDeleteBatch: intSetting(10000, { min: 1 }),
  decayHalfLifeDays: numberSetting(90, { min: 0.001 }),
  decayFloor: numberSetting(0.05, { min: 0 }),
  decayBatch: intSetting(20000, { min: 1 }),
  dedupSimilarity: numberSetting(0.8, { min: 0 }),
  sessionIdleMinutes: numberSetting(30, { min: 0 }),
  profileClaims: intSetting(5, { min: 1, max: 100 }),
  profileBatch: intSetting(500, { min: 1 }),
  graphExtractThreads: intSetting(undefined, { min: 1, max: 64 }),
  llmUrl: urlSetting(['http', 'https']),
  llmModel: z.string().default('gpt-4o-mini'),
  llmApiKey: z.string().optional(),
  llmTimeoutSeconds: numberSetting(120, { min: 1 }),
  llmMaxAttempts: intSetting(3, { min: 1, max: 10 }),
  communitiesGrowthThreshold: intSetting(50, { min: 0 }),
  communitiesMaxLevels: intSetting(4, { min: 1, max: 10 }),
  communitiesResolution: numberSetting(1, { min: 0.01 }),
  communitiesSummaryClaims: intSetting(8, { min: 1, max: 100 }),
  raptorClusterSize: intSetting(8, { min: 2, max: 1000 }),
  raptorMaxLevels: intSetting(4, { min: 1, max: 10 }),
  raptorSummaryChars: intSetting(1200, { min: 100 }),
  insightTrendRatio: numberSetting(1.5, { min: 1 }),
  insightTrendMinDelta: numberSetting(1, { min: 0 }),
  insightMaxObjects: intSetting(4, { min: 2 }),
  insightEvidenceClaims: intSetting(10, { min: 1, max: 1000 }),
  integrityBatch: intSetting(100, { min: 1 }),
  integrityMinAgeDays: numberSetting(30, { min: 0 }),
  backupDir: z.string().optional(),
  backupKeep: intSetting(7, { min: 1 }),
  /** Where originals live: postgres (the default: shared by every host, backed up with the DB) or folder. */
  contentStore: z.enum(['postgres', 'folder']).default('postgres'),
  contentStoreDir: z.string().optional(),
  doclingUrl: urlSetting(['http', 'https']),
  doclingApiKey: z.string().optional(),
  doclingTimeoutSeconds: numberSetting(300, { min: 1 }),
  embeddingsUrl: urlSetting(['http', 'https']),
  embeddingsModel: z.string().default('text-embedding-3-small'),
  embeddingsApiKey: z.string().optional(),
  embeddingsBatch: intSetting(64, { min: 1, max: 2048 }),
  chunkMaxChars: intSetting(2000, { min: 100 }),
  chunkOverlapChars: intSetting(200, { min: 0 }),
  artifactDispatchBatch: intSetting(512, { min: 1 }),
  /** A folder holding pg_dump and pg_restore; unset, they are looked up on PATH. */
  backupPgBin: z.string().optional(),
  requeueDefaultLimit: intSetting(1000, { min: 1 }),
  statusHeldThreshold: intSetting(0, { min: 0 }),
}

type ShapeOf<T> = { [K in keyof T]: z.ZodTypeAny }
/** Checks across settings (one job's setting needing another); each returns its problems. */
const settingChecks: ((settings: Settings) => string[])[] = []
const extraShape: Record<string, z.ZodTypeAny> = {}
const secretKeys = new Set<string>(['databaseUrl', 'appDatabaseUrl'])

export type CoreSettings = z.output<z.ZodObject<typeof coreShape>>
/** Core settings plus whatever job modules registered (`<name>Cron`, `<name>Enabled`, ...). */
export type Settings = CoreSettings & Record<string, unknown>

/** Add settings (a job module's cron and enabled pair). Re-registering the same key is an error. */
export function registerSettings(shape: Record<string, z.ZodTypeAny>, opts: { secret?: string[] } = {}): void {
  for (const [key, schema] of Object.entries(shape)) {
    if (key in coreShape || key in extraShape) throw new Error(`setting ${key} is registered twice`)
    extraShape[key] = schema
  }
  for (const key of opts.secret ?? []) secretKeys.add(key)
  cached = undefined
}

/** Add a check across settings, run after the schema parsed (a job module registers its own). */
export function registerSettingsCheck(check: (settings: Settings) => string[]): void {
  settingChecks.push(check)
  cached = undefined
}

export function isSecretSetting(key: string): boolean {
  return secretKeys.has(key) || /(password|secret|apikey|token)/i.test(key)
}

/** camelCase key -> AIZK_SCREAMING_SNAKE variable. */
export function envName(key: string): string {
  return `AIZK_${key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}`
}

/** Variables oclif reads itself under the bin's prefix; allowed, never reported as unknown. */
const OCLIF_RESERVED = new Set(['DEBUG', 'DATA_DIR', 'CONFIG_DIR', 'CACHE_DIR', 'SHELL', 'REDIRECTED', 'CLI_ASCII', 'TEST_DATABASE_URL'])

export interface LoadedSettings {
  settings: Settings
  unknown: string[]
}

function fullShape(): ShapeOf<Settings> {
  return { ...coreShape, ...extraShape } as ShapeOf<Settings>
}

export function parseSettings(env: NodeJS.ProcessEnv = process.env): LoadedSettings {
  const shape = fullShape()
  const input: Record<string, string> = {}
  const known = new Set<string>()
  for (const key of Object.keys(shape)) {
    const name = envName(key)
    known.add(name)
    const value = env[name]
    if (value !== undefined) input[key] = value
  }
  const result = z.object(shape).safeParse(input)
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? '')
      const message = issue.code === 'invalid_type' && issue.received === 'undefined' ? 'is required' : issue.message
      return `${envName(key)}: ${message}`
    })
    throw new ConfigError(problems)
  }
  const settings = result.data as Settings
  const crossProblems = settingChecks.flatMap((check) => check(settings))
  if (crossProblems.length) throw new ConfigError(crossProblems)
  if (settings.queueConcurrentTasks === undefined) settings.queueConcurrentTasks = settings.queueBatchSize * 4
  const crossed = heartbeatProblems(settings)
  if (crossed.length) throw new ConfigError(crossed)
  const unknown = Object.keys(env).filter(
    (name) => name.startsWith('AIZK_') && !known.has(name) && !OCLIF_RESERVED.has(name.slice(5)),
  )
  return { settings, unknown }
}

/** Heartbeats a worker must send within the timeout, so one late heartbeat never looks like death. */
export const HEARTBEATS_PER_TIMEOUT = 3

/**
 * The heartbeat pair, checked together: a timeout that passes before the worker's own next
 * heartbeat makes every worker re-pick the jobs it is still running. `names` says how each
 * value was given (a variable, or a worker flag).
 */
export function heartbeatProblems(
  s: Pick<CoreSettings, 'heartbeatIntervalSeconds' | 'heartbeatTimeoutSeconds'>,
  names = { interval: envName('heartbeatIntervalSeconds'), timeout: envName('heartbeatTimeoutSeconds') },
): string[] {
  if (s.heartbeatIntervalSeconds * HEARTBEATS_PER_TIMEOUT <= s.heartbeatTimeoutSeconds) return []
  return [
    `${names.interval} (${s.heartbeatIntervalSeconds}) and ${names.timeout} (${s.heartbeatTimeoutSeconds}): ` +
      `the timeout must be at least ${HEARTBEATS_PER_TIMEOUT} heartbeat intervals, or workers re-pick jobs they are still running`,
  ]
}

let cached: LoadedSettings | undefined

/** The job modules to load, read before the full schema exists (their settings join it). */
export function jobModulePaths(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env[envName('workerJobModules')] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
}

/** The process's settings, parsed once (again only after a job module registers more). */
export function loadSettings(): Settings {
  cached ??= parseSettings(process.env)
  return cached.settings
}

export function unknownSettingVariables(): string[] {
  cached ??= parseSettings(process.env)
  return cached.unknown
}

/** Effective settings with their variables, secrets masked, for `aizk settings`. */
export function describeSettings(settings: Settings): { key: string; variable: string; value: unknown; default: unknown; description: string }[] {
  const defaults = z.object(fullShape()).safeParse({})
  const defaultValues = defaults.success ? (defaults.data as Record<string, unknown>) : {}
  return Object.keys(fullShape())
    .sort()
    .map((key) => {
      const value = settings[key]
      return {
        key,
        variable: envName(key),
        value: isSecretSetting(key) && value !== undefined ? maskSecret(String(value)) : (value ?? null),
        default: isSecretSetting(key) ? null : (defaultValues[key] ?? null),
        description: describeSetting(key) ?? '',
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
