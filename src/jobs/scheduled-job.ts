// biome-ignore-all lint/complexity/noThisInStatic: derived names are polymorphic statics; `this` is the subclass
/**
 * The ScheduledJob family. Everything is derived from the class name, nothing is typed twice:
 * CommunitiesJob -> jobName 'communities', cronEntrypoint 'aizk_cron_communities', entrypoint
 * 'aizk_task_communities', settings communitiesCron / communitiesEnabled
 * (AIZK_COMMUNITIES_CRON / AIZK_COMMUNITIES_ENABLED). A subclass declares `defaultCron` and
 * `defaultEnabled` and implements `execute`; exporting it from a job module is all it takes:
 * the registry finds it, and registering it adds its two settings to the schema.
 *
 * (The derived name is `jobName`: a class's own `name` is the JavaScript class name, which every
 * subclass carries as an own property, so it cannot be derived by the base class.)
 */
import type pg from 'pg'
import { z } from 'zod'
import { nextFireAfter, toPgqueuerExpression, validateCron } from '../cron.js'
import { JobPriority } from '../queue/priority.js'
import { normalizeScopes } from '../scope/scope-set.js'
import { User } from '../scope/user.js'
import type { Settings } from '../settings.js'
import { boolSetting, cronSetting } from '../settings-types.js'
import { type JobContext, type JobKind, QueueJob, type StatementDeadline } from './queue-job.js'
import { type DeclaredSettings, JobDeclarationError } from './registry.js'

/** A scheduled job's context: the worker's (settings included). */
export type ScheduledContext = JobContext

export interface ScopedContext extends ScheduledContext {
  /** The pass's client, inside User.system(scopes): row security decides every row it touches. */
  db: pg.PoolClient
  user: User
}

/** CommunitiesJob -> communities, ArtifactDispatchJob -> artifact_dispatch, HTMLExportJob -> html_export. */
export function deriveJobName(className: string): string {
  const base = className.replace(/Job$/, '')
  return base
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
}

/** artifact_dispatch -> artifactDispatch (the settings key stem). */
export function camelName(jobName: string): string {
  return jobName.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())
}

export abstract class ScheduledJob<P = unknown> extends QueueJob<P> {
  static override priority: number = JobPriority.maintenance
  static override concurrencyLimit = 1
  /** A pass over a whole scope set or table may rightly run one long statement: bounded by the job timeout. */
  static override statementDeadlineSeconds: StatementDeadline = 'job-timeout'
  /** cron-parser syntax (an optional seconds field first), read in UTC unless AIZK_TIMEZONE. */
  declare static defaultCron: string
  static defaultEnabled = true

  static get jobName(): string {
    return deriveJobName(this.name)
  }

  static get cronEntrypoint(): string {
    return `aizk_cron_${this.jobName}`
  }

  /** Only a concrete job (one that implements execute) has an entrypoint: the bases are not jobs. */
  static override get entrypoint(): string {
    return typeof (this.prototype as { execute?: unknown }).execute === 'function' ? `aizk_task_${this.jobName}` : (undefined as unknown as string)
  }

  static get settingKeys(): { cron: string; enabled: string } {
    const stem = camelName(this.jobName)
    return { cron: `${stem}Cron`, enabled: `${stem}Enabled` }
  }

  /** The effective cron expression (cron-parser syntax), or 'off'. */
  static cron(settings: Readonly<Record<string, unknown>>): string {
    const value = settings[this.settingKeys.cron]
    return typeof value === 'string' ? value : this.defaultCron
  }

  static enabled(settings: Readonly<Record<string, unknown>>): boolean {
    const value = settings[this.settingKeys.enabled]
    return (typeof value === 'boolean' ? value : this.defaultEnabled) && this.cron(settings) !== 'off'
  }

  /** Whether the scheduler fires it: enabled with a cron (an enabled job may be queued only by others). */
  static fires(settings: Readonly<Record<string, unknown>>): boolean {
    return this.enabled(settings) && this.cron(settings) !== 'off'
  }

  /** The next fire after `from`, or null when the job is disabled or has no cron. */
  static nextFire(settings: Settings, from: Date = new Date()): Date | null {
    if (!this.fires(settings)) return null
    return nextFireAfter(this.cron(settings), from, { timezone: settings.timezone })
  }

  /** What `aizk jobs types` shows for a scheduled job. */
  static describe(settings: Settings, from: Date = new Date()) {
    return {
      name: this.jobName,
      kind: this.kind,
      entrypoint: this.entrypoint,
      cronEntrypoint: this.cronEntrypoint,
      cron: this.cron(settings),
      enabled: this.enabled(settings),
      nextFire: this.nextFire(settings, from)?.toISOString() ?? null,
      settings: { cron: this.settingKeys.cron, enabled: this.settingKeys.enabled },
    }
  }

  /** Called by the registry when the class registers: checks the default, declares the two settings. */
  static declareSettings(): DeclaredSettings {
    const where = `${this.name} (${this.jobName})`
    if (typeof this.defaultCron !== 'string') throw new JobDeclarationError(`${where}: static defaultCron is not declared`)
    if (this.defaultCron !== 'off') {
      try {
        validateCron(this.defaultCron)
        toPgqueuerExpression(this.defaultCron)
      } catch (err) {
        throw new JobDeclarationError(`${where}: defaultCron "${this.defaultCron}" is invalid: ${(err as Error).message}`)
      }
    }
    const { cron, enabled } = this.settingKeys
    return { shape: { [cron]: cronSetting(this.defaultCron), [enabled]: boolSetting(this.defaultEnabled) } }
  }
}

/**
 * The worker's context with more on it. Not a spread: the worker's context answers `signal`,
 * `report` and the job's fields from its prototype, which a spread would silently drop.
 */
function extendContext<T extends object>(ctx: JobContext, more: T): JobContext & T {
  return Object.assign(Object.create(ctx) as JobContext, more)
}

const scopesPayload = z.object({
  scopes: z
    .array(z.string().uuid())
    .min(1)
    .transform((s) => normalizeScopes(s)),
})

/** A pass that fans out into one queue item per exact scope set in the roster. */
export abstract class ScopedScheduledJob extends ScheduledJob<{ scopes: string[] }> {
  static override kind: JobKind = 'scoped'
  static override payload: z.ZodTypeAny = scopesPayload

  static dedupeKey(scopes: Iterable<string>): string {
    return `${this.jobName}:${normalizeScopes(scopes).join(',')}`
  }

  abstract execute(scopes: readonly string[], ctx: ScopedContext): Promise<void>

  async handle(payload: { scopes: string[] }, ctx: JobContext): Promise<void> {
    const user = User.system(payload.scopes, ctx.settings)
    await user.transaction(ctx.pool, (db) => this.execute(user.write, extendContext(ctx, { db, user })))
  }
}

/** Work with no tenant: one queue item per tick, no scope payload. */
export abstract class SystemScheduledJob extends ScheduledJob<Record<string, never>> {
  static override kind: JobKind = 'system'
  static override payload: z.ZodTypeAny = z
    .object({})
    .nullish()
    .transform(() => ({}))

  static dedupeKey(): string {
    return this.jobName
  }

  abstract execute(ctx: ScheduledContext): Promise<void>

  async handle(_payload: unknown, ctx: JobContext): Promise<void> {
    await this.execute(ctx)
  }
}

export type ScheduledJobClass = typeof ScopedScheduledJob | typeof SystemScheduledJob

/** A concrete scheduled job class (the abstract bases are not). */
export function isScheduledJobClass(value: unknown): value is ScheduledJobClass {
  return typeof value === 'function' && value.prototype instanceof ScheduledJob && typeof (value as typeof ScheduledJob).entrypoint === 'string'
}
