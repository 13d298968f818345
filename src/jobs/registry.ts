/**
 * The job registry: every job class the process knows, checked when it registers. Job modules
 * are discovered, not listed: `registerModule` registers every concrete job class a module
 * exports, so adding a job means exporting a subclass. The registry also owns the settings its
 * jobs declare (`declareSettings`): it is the `registry` that `parseSettings` adds to the schema.
 */
import { z } from 'zod'
import { MAX_STATEMENT_DEADLINE_SECONDS } from '../db/statement-deadline.js'
import type { Settings, SettingsSource } from '../settings.js'
import { type JobClass, QueueJob } from './queue-job.js'

export class JobDeclarationError extends Error {}

const ENTRYPOINT = /^[a-z][a-z0-9_]{0,62}$/

/** A class is a concrete job when it extends QueueJob and declares its own entrypoint. */
export function isJobClass(value: unknown): value is JobClass {
  return typeof value === 'function' && value.prototype instanceof QueueJob && typeof (value as JobClass).entrypoint === 'string'
}

export function checkDeclaration(job: JobClass): void {
  const where = `${job.name} (${String(job.entrypoint)})`
  if (!ENTRYPOINT.test(job.entrypoint ?? '')) {
    throw new JobDeclarationError(`${job.name}: entrypoint "${job.entrypoint}" must be lower-case letters, digits and _ (at most 63)`)
  }
  if (!(job.payload instanceof z.ZodType)) throw new JobDeclarationError(`${where}: payload must be a zod schema`)
  if (!Number.isInteger(job.priority) || Math.abs(job.priority) > 2 ** 31 - 1) {
    throw new JobDeclarationError(`${where}: priority must be a whole number, got ${job.priority}`)
  }
  if (!Number.isInteger(job.concurrencyLimit) || job.concurrencyLimit < 0) {
    throw new JobDeclarationError(`${where}: concurrencyLimit must be a whole number >= 0 (0 = unbounded), got ${job.concurrencyLimit}`)
  }
  if (!Number.isInteger(job.maxAttempts) || job.maxAttempts < 1) {
    throw new JobDeclarationError(`${where}: maxAttempts must be a whole number >= 1, got ${job.maxAttempts}`)
  }
  if (job.payloadFormat !== 'json' && job.payloadFormat !== 'bytes') {
    throw new JobDeclarationError(`${where}: payloadFormat must be 'json' or 'bytes', got ${String(job.payloadFormat)}`)
  }
  const deadline = job.statementDeadlineSeconds
  if (
    deadline !== undefined &&
    deadline !== 'job-timeout' &&
    !(typeof deadline === 'number' && Number.isFinite(deadline) && deadline >= 0 && deadline <= MAX_STATEMENT_DEADLINE_SECONDS)
  ) {
    throw new JobDeclarationError(
      `${where}: statementDeadlineSeconds must be seconds from 0 (none) to ${MAX_STATEMENT_DEADLINE_SECONDS}, or 'job-timeout', got ${String(deadline)}`,
    )
  }
  if (typeof job.prototype.handle !== 'function') throw new JobDeclarationError(`${where}: handle() is not implemented`)
}

/** Settings a job class declares: zod fields by key, a check across settings, the secret keys. */
export interface DeclaredSettings {
  shape: Record<string, z.ZodTypeAny>
  check?: (settings: Settings) => string[]
  secret?: string[]
}

export class JobRegistry implements SettingsSource {
  private readonly jobs = new Map<string, JobClass>()
  private readonly shape: Record<string, z.ZodTypeAny> = {}
  private readonly owners = new Map<string, JobClass>()
  private readonly checks: ((settings: Settings) => string[])[] = []
  private readonly secrets = new Set<string>()

  register(job: JobClass): JobClass {
    const existing = this.jobs.get(job.entrypoint)
    if (existing === job) return job
    checkDeclaration(job)
    if (existing) {
      throw new JobDeclarationError(`entrypoint ${job.entrypoint} is declared twice: by ${existing.name} and by ${job.name}`)
    }
    // A job kind may declare settings: a scheduled job its cron/enabled pair.
    const declared = (job as { declareSettings?: () => DeclaredSettings }).declareSettings?.call(job)
    if (declared) this.addSettings(job, declared)
    this.jobs.set(job.entrypoint, job)
    return job
  }

  private addSettings(job: JobClass, declared: DeclaredSettings): void {
    for (const key of Object.keys(declared.shape)) {
      const owner = this.owners.get(key)
      if (owner) throw new JobDeclarationError(`${job.name} (${job.entrypoint}): setting ${key} is already declared by ${owner.name}`)
    }
    for (const [key, schema] of Object.entries(declared.shape)) {
      this.shape[key] = schema
      this.owners.set(key, job)
    }
    if (declared.check) this.checks.push(declared.check)
    for (const key of declared.secret ?? []) this.secrets.add(key)
  }

  settingsShape(): Readonly<Record<string, z.ZodTypeAny>> {
    return this.shape
  }

  settingsChecks(): readonly ((settings: Settings) => string[])[] {
    return this.checks
  }

  secretSettings(): ReadonlySet<string> {
    return this.secrets
  }

  /** Register every concrete job class among a module's exports. */
  registerModule(exports: Record<string, unknown>): JobClass[] {
    return Object.values(exports)
      .filter(isJobClass)
      .map((job) => this.register(job))
  }

  get(entrypoint: string): JobClass | undefined {
    return this.jobs.get(entrypoint)
  }

  all(): JobClass[] {
    return [...this.jobs.values()].sort((a, b) => a.entrypoint.localeCompare(b.entrypoint))
  }

  entrypoints(): string[] {
    return this.all().map((j) => j.entrypoint)
  }
}

/** The process-wide registry the CLI and worker use; tests may build their own. */
export const jobRegistry = new JobRegistry()
