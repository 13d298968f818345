/**
 * The zod schema of AIZK_* settings with the spec's defaults, parsed once into one frozen object.
 * Only the CLI's entry points hand it the environment (docs/architecture.md#settings); the job
 * registry adds the settings its jobs declare (a scheduled job's `<name>Cron` / `<name>Enabled`).
 */
import { z } from 'zod'
import { ConfigError } from './errors.js'
import { describeSetting } from './settings-docs.js'
import {
  boolSetting,
  folderSetting,
  intSetting,
  listSetting,
  MAX_DAYS,
  MAX_TIMER_SECONDS,
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
  /** transaction: AIZK_DATABASE_URL (and AIZK_APP_DATABASE_URL) go through a transaction pooler such as PgBouncer. */
  databasePoolMode: z.enum(['session', 'transaction']).default('session'),
  /** PostgreSQL itself, for what needs a session of its own behind a transaction pooler (LISTEN, install). */
  directDatabaseUrl: urlSetting(['postgres', 'postgresql']),
  appRole: z
    .string()
    .default('aizk_app')
    .pipe(z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'expected a lower-case SQL role name')),
  systemUserId: uuidSetting(DEFAULT_SYSTEM_USER_ID),
  timezone: timezoneSetting(),
  dataDir: folderSetting(),
  /** Unset: 54329, or a free port above it when another program holds 54329 (embedded-port.ts). */
  embeddedPort: intSetting(undefined, { min: 1024, max: 65535 }),

  queueBatchSize: intSetting(64, { min: 1, max: 10000 }),
  queueConcurrentTasks: intSetting(undefined, { min: 1 }),
  queueLocalSize: intSetting(undefined, { min: 0, max: 100000 }),
  /** Picks one worker may have on the server at once: 2 drains a busy queue faster at more server CPU per job. */
  queuePicksInFlight: intSetting(1, { min: 1, max: 2 }),
  workerJobPoolSize: intSetting(undefined, { min: 1, max: 10000 }),
  /** Rows updated or deleted in pgqueuer since its last VACUUM past which a worker vacuums it; 0 = never. */
  queueVacuumRows: intSetting(100000, { min: 0 }),
  workerEntrypoints: listSetting(),
  workerNoScheduler: boolSetting(false),
  workerJobModules: listSetting(),
  workerHealthPort: intSetting(undefined, { min: 0, max: 65535 }),
  /** auto: the live view on a terminal, JSON lines elsewhere; view or json forces one. */
  workerOutput: z.enum(['auto', 'view', 'json']).default('auto'),
  /** One JSON line per job event; off keeps only batch, worker and schedule lines (high throughput). */
  workerLogJobs: boolSetting(true),
  heartbeatIntervalSeconds: numberSetting(5, { min: 0.05, max: MAX_TIMER_SECONDS }),
  heartbeatTimeoutSeconds: numberSetting(30, { min: 0.1, max: MAX_TIMER_SECONDS }),
  /** Picks of queue managers aizk does not know (PgQueuer workers): stale only past this; 0 = never. */
  foreignHeartbeatTimeoutSeconds: numberSetting(FOREIGN_HEARTBEAT_TIMEOUT_SECONDS, { min: 0, max: MAX_TIMER_SECONDS }),
  /** Write `queued` and `picked` log rows as PgQueuer does (its job_status and percentiles see aizk's jobs). */
  queueLogParity: boolSetting(false),
  shutdownTimeoutSeconds: numberSetting(25, { min: 0, max: MAX_TIMER_SECONDS }),
  /** Every queue round trip (pick, completion, heartbeat, counts, status reads) and handlers' statement fails past this, its connection destroyed. */
  dbDeadlineSeconds: numberSetting(15, { min: 0.1, max: 3600 }),
  /** Idle seconds before TCP keepalive probes start on every database connection. */
  dbKeepaliveSeconds: numberSetting(10, { min: 1, max: 7200 }),
  /** How often the LISTEN connection proves itself with a round trip. */
  listenCheckSeconds: numberSetting(10, { min: 0.1, max: 3600 }),
  completionFlushMs: intSetting(15, { min: 0, max: 10000 }),
  workerStartupWaitSeconds: numberSetting(60, { min: 0, max: MAX_TIMER_SECONDS }),
  pollIntervalSeconds: numberSetting(1, { min: 0.01, max: MAX_TIMER_SECONDS }),
  retryBaseSeconds: numberSetting(2, { min: 0, max: MAX_TIMER_SECONDS }),
  retryMaxSeconds: numberSetting(600, { min: 0, max: MAX_TIMER_SECONDS }),
  /** A handler running longer is failed (retried or held) and its slot freed; 0 = no limit. */
  jobTimeoutSeconds: numberSetting(1800, { min: 0, max: MAX_TIMER_SECONDS }),

  doclingConcurrency: intSetting(4, { min: 0 }),
  graphBuildConcurrency: intSetting(4, { min: 0 }),
  chunkDispatchBatch: intSetting(512, { min: 1 }),
  chunkRecoveryBatch: intSetting(512, { min: 1 }),
  chunkRecoveryMaxCycles: intSetting(3, { min: 0 }),
  cleanupLogRetentionDays: numberSetting(7, { min: 0, max: MAX_DAYS }),
  cleanupLogDeleteBatch: intSetting(10000, { min: 1 }),
  decayHalfLifeDays: numberSetting(90, { min: 0.001, max: MAX_DAYS }),
  /** A claim's weight starts at 1 and only decays: a floor is a share of it. */
  decayFloor: numberSetting(0.05, { min: 0, max: 1 }),
  decayBatch: intSetting(20000, { min: 1 }),
  dedupSimilarity: numberSetting(0.8, { min: 0, max: 1 }),
  dedupEmbeddingSimilarity: numberSetting(0.92, { min: 0, max: 1 }),
  sessionIdleMinutes: numberSetting(30, { min: 0, max: MAX_DAYS * 24 * 60 }),
  profileClaims: intSetting(5, { min: 1, max: 100 }),
  profileBatch: intSetting(500, { min: 1 }),
  reportBatch: intSetting(20, { min: 1, max: 1000 }),
  reportConcurrency: intSetting(4, { min: 1, max: 64 }),
  graphExtractThreads: intSetting(undefined, { min: 1, max: 64 }),
  llmUrl: urlSetting(['http', 'https']),
  llmModel: z.string().default('gpt-4o-mini'),
  llmApiKey: z.string().optional(),
  llmTimeoutSeconds: numberSetting(120, { min: 1, max: MAX_TIMER_SECONDS }),
  llmMaxAttempts: intSetting(3, { min: 1, max: 10 }),
  llmConcurrency: intSetting(4, { min: 1, max: 64 }),
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
  integrityMinAgeDays: numberSetting(30, { min: 0, max: MAX_DAYS }),
  backupDir: folderSetting(),
  backupKeep: intSetting(7, { min: 1 }),
  /** Where originals live: postgres (the default: shared by every host, backed up with the DB) or folder. */
  contentStore: z.enum(['postgres', 'folder']).default('postgres'),
  contentStoreDir: folderSetting(),
  doclingUrl: urlSetting(['http', 'https']),
  doclingApiKey: z.string().optional(),
  doclingTimeoutSeconds: numberSetting(300, { min: 1, max: MAX_TIMER_SECONDS }),
  embeddingsUrl: urlSetting(['http', 'https']),
  embeddingsModel: z.string().default('text-embedding-3-small'),
  embeddingsApiKey: z.string().optional(),
  embeddingsBatch: intSetting(64, { min: 1, max: 2048 }),
  chunkMaxChars: intSetting(2000, { min: 100 }),
  chunkOverlapChars: intSetting(200, { min: 0 }),
  artifactDispatchBatch: intSetting(512, { min: 1 }),
  /** A folder holding pg_dump and pg_restore; unset, they are looked up on PATH. */
  backupPgBin: folderSetting(),
  /** What `aizk ingest` reads at most; one PostgreSQL value holds at most 1 GiB. */
  ingestMaxBytes: intSetting(268_435_456, { min: 1, max: 1_073_741_823 }),
  enqueueMaxPayloadBytes: intSetting(262_144, { min: 1024, max: 1_073_741_823 }),
  requeueDefaultLimit: intSetting(1000, { min: 1 }),
  statusHeldThreshold: intSetting(0, { min: 0 }),
  /** `aizk dashboard` accepts this bearer token (or its cookie); set, it may bind beyond loopback. */
  dashboardToken: z.string().min(16, 'expected at least 16 characters').optional(),
  /** `aizk dashboard` basic auth: both or neither. */
  dashboardUser: z.string().min(1).optional(),
  dashboardPassword: z.string().min(8, 'expected at least 8 characters').optional(),
  dashboardPort: intSetting(8474, { min: 0, max: 65535 }),
  dashboardIntervalSeconds: numberSetting(2, { min: 0.2, max: MAX_TIMER_SECONDS }),
}

type ShapeOf<T> = { [K in keyof T]: z.ZodTypeAny }
const CORE_SECRETS = new Set<string>(['databaseUrl', 'appDatabaseUrl', 'directDatabaseUrl'])

export type CoreSettings = z.output<z.ZodObject<typeof coreShape>>
/** The environment the settings were parsed from, as the CLI handed it in (frozen copy). */
export type Environment = Readonly<Record<string, string | undefined>>

/**
 * Core settings plus the ones the registry's jobs declared (`<name>Cron`, `<name>Enabled`, ...),
 * and `env`: the environment itself, for what is no setting (XDG_DATA_HOME) and for child
 * processes (pg_ctl, pg_dump), so no core module reads `process.env`.
 */
export type Settings = Readonly<CoreSettings & { env: Environment } & Record<string, unknown>>

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
  overrides?: Readonly<Record<string, unknown>>
  /** How an override was given, for messages: `{ heartbeatTimeoutSeconds: '--heartbeat-timeout' }`. */
  sources?: Readonly<Record<string, string>>
}

export function isSecretSetting(key: string, registry?: SettingsSource): boolean {
  return CORE_SECRETS.has(key) || registry?.secretSettings().has(key) === true || /(password|secret|apikey|token)/i.test(key)
}

/** camelCase key -> AIZK_SCREAMING_SNAKE variable. */
export function envName(key: string): string {
  return `AIZK_${key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}`
}

/** Variables oclif reads itself under the bin's prefix; allowed, never reported as unknown. */
const OCLIF_RESERVED = new Set(['DEBUG', 'DATA_DIR', 'CONFIG_DIR', 'CACHE_DIR', 'SHELL', 'REDIRECTED', 'CLI_ASCII', 'CONTENT_TYPE', 'DISABLE_THEME', 'TEST_DATABASE_URL'])

function fullShape(registry?: SettingsSource): ShapeOf<CoreSettings & Record<string, unknown>> {
  const extra = registry?.settingsShape() ?? {}
  for (const key of Object.keys(extra)) if (key in coreShape || key === 'env') throw new ConfigError([`${envName(key)}: declared by a job but is a core setting`])
  return { ...coreShape, ...extra } as ShapeOf<CoreSettings & Record<string, unknown>>
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
  const given = (key: string) => opts.overrides?.[key] !== undefined && opts.sources?.[key]
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
  const parsed = result.data as CoreSettings & { env: Environment } & Record<string, unknown>
  parsed.env = Object.freeze({ ...env })
  // Derived once, after overrides: an explicit concurrency (variable or flag) always wins.
  parsed.queueConcurrentTasks ??= parsed.queueBatchSize * 4
  parsed.queueLocalSize ??= defaultLocalQueueSize(parsed.queueBatchSize)
  const settings: Settings = Object.freeze(parsed)
  const crossProblems = (opts.registry?.settingsChecks() ?? []).flatMap((check) => check(settings))
  if (crossProblems.length) throw new ConfigError(crossProblems)
  const crossed = heartbeatProblems(settings, { interval: nameOf('heartbeatIntervalSeconds'), timeout: nameOf('heartbeatTimeoutSeconds') })
  if (crossed.length) throw new ConfigError(crossed)
  if ((settings.dashboardUser === undefined) !== (settings.dashboardPassword === undefined)) {
    throw new ConfigError([`${envName('dashboardUser')} and ${envName('dashboardPassword')}: set both for basic auth, or neither`])
  }
  return settings
}

/** AIZK_ variables in `env` that are no setting of the schema (typos), for a warning. */
export function unknownSettingVariables(env: NodeJS.ProcessEnv, registry?: SettingsSource): string[] {
  const known = new Set(Object.keys(fullShape(registry)).map(envName))
  return Object.keys(env).filter((name) => name.startsWith('AIZK_') && !known.has(name) && !OCLIF_RESERVED.has(name.slice(5)))
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

/** The job modules to load, read before the full schema exists (their jobs' settings join it). */
export function jobModulePaths(env: NodeJS.ProcessEnv): string[] {
  return (env[envName('workerJobModules')] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
}

/** Effective settings with their variables, secrets masked, for `aizk settings`. */
export function describeSettings(
  settings: Settings,
  registry?: SettingsSource,
): { key: string; variable: string; value: unknown; default: unknown; description: string }[] {
  const defaults = z.object(fullShape(registry)).safeParse({})
  const defaultValues = defaults.success ? (defaults.data as Record<string, unknown>) : {}
  return Object.keys(fullShape(registry))
    .sort()
    .map((key) => {
      const value = settings[key]
      return {
        key,
        variable: envName(key),
        value: isSecretSetting(key, registry) && value !== undefined ? maskSecret(String(value)) : (value ?? null),
        default: isSecretSetting(key, registry) ? null : (defaultValues[key] ?? null),
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

/** A worker's picks grow to at most this many jobs unless the batch size is larger. */
const GROWN_PICK_CAP = 512

/**
 * The largest pick a worker grows to: while picks come back full, each asks for twice the last,
 * up to 8 batches and at most GROWN_PICK_CAP (a larger batch size is its own ceiling).
 * docs/job-lifecycle.md#the-size-of-a-pick says why.
 */
export function pickCeiling(batchSize: number): number {
  return Math.max(batchSize, Math.min(batchSize * 8, GROWN_PICK_CAP))
}

/**
 * The local queue's size unless set: room for two of the largest picks (one waits in reserve
 * while the next is on its way) and at least four batches, whatever the concurrency
 * (docs/job-lifecycle.md#the-local-queue). It holds at most about a second of work
 * (worker/pick-loop.ts, LOCAL_QUEUE_HORIZON_MS).
 */
export function defaultLocalQueueSize(batchSize: number): number {
  return Math.max(batchSize * 4, 2 * pickCeiling(batchSize))
}
