/**
 * The typed error family. Every error an operator can cause or meet carries an exit code and a hint
 * that says what to do; the base command renders them in one place
 * (docs/architecture.md#errors-and-exit-codes).
 */
export const ExitCode = {
  ok: 0,
  internal: 1,
  usage: 2,
  config: 3,
  database: 4,
  notFound: 5,
  conflict: 6,
  unhealthy: 7,
  /** `enqueue --wait`: the job failed (held, or a PgQueuer worker's exception). */
  jobFailed: 8,
  /** `enqueue --wait`: the job was canceled or discarded before it succeeded. */
  jobCanceled: 9,
  /** `enqueue --wait`: the job had not finished when the timeout ran out. */
  waitTimeout: 10,
} as const

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode]

export class AizkError extends Error {
  readonly exitCode: ExitCodeValue = ExitCode.internal
  readonly code: string = 'internal'
  constructor(
    message: string,
    readonly hint?: string,
    readonly details?: unknown,
  ) {
    super(message)
    this.name = new.target.name
  }
}

/** Bad flags, a payload that fails its schema, an unknown entrypoint. */
export class UsageError extends AizkError {
  override readonly exitCode = ExitCode.usage
  override readonly code = 'usage'
}

/** One or more AIZK_* settings are invalid; `problems` lists each with its variable. */
export class ConfigError extends AizkError {
  override readonly exitCode = ExitCode.config
  override readonly code = 'config'
  constructor(readonly problems: string[]) {
    super(`invalid settings:\n${problems.map((p) => `  ${p}`).join('\n')}`, 'fix the variables above (see `aizk settings` and docs/settings.md)', problems)
  }
}

/**
 * No database to use: AIZK_DATABASE_URL is unset and the embedded server is not installed (an
 * `npm ci --omit=optional` install, as in the container image, leaves it out). Configuration.
 */
export class NoDatabaseError extends AizkError {
  override readonly exitCode = ExitCode.config
  override readonly code = 'no_database'
}

/** The server cannot be reached, or the schema is missing or behind. */
export class DatabaseError extends AizkError {
  override readonly exitCode = ExitCode.database
  override readonly code = 'database'
}

/**
 * The server answers but refuses writes: a hot standby, or a primary set read-only (a Patroni
 * demotion, `default_transaction_read_only`). Exit 4 like any database aizk cannot use; its own
 * code so a deploy script can tell "pointed at a replica" from "down" (docs/running-the-worker.md#read-only-servers).
 */
export class DatabaseReadOnlyError extends AizkError {
  override readonly exitCode = ExitCode.database
  override readonly code = 'database_read_only'
}

/**
 * A forward migration recorded as applied no longer matches its file: the database was built from
 * different SQL than this aizk holds (docs/schema.md#checksums).
 */
export class SchemaChangedError extends AizkError {
  override readonly exitCode = ExitCode.database
  override readonly code = 'schema_changed'
}

/**
 * `aizk install --check`: the database's schema is not the one this build installs (missing,
 * behind or ahead); `details` holds the comparison (docs/deployment.md#upgrading).
 */
export class SchemaMismatchError extends AizkError {
  override readonly exitCode = ExitCode.database
  override readonly code = 'schema_mismatch'
}

export class NotFoundError extends AizkError {
  override readonly exitCode = ExitCode.notFound
  override readonly code = 'not_found'
}

/** Another process holds what was asked for (a lock, a running server on our port). */
export class ConflictError extends AizkError {
  override readonly exitCode = ExitCode.conflict
  override readonly code = 'conflict'
}

export class UnhealthyError extends AizkError {
  override readonly exitCode = ExitCode.unhealthy
  override readonly code = 'unhealthy'
}

/** A waited-for job failed: held (or a PgQueuer worker logged an exception). */
export class JobFailedError extends AizkError {
  override readonly exitCode = ExitCode.jobFailed
  override readonly code = 'job_failed'
}

/** A waited-for job was canceled or discarded. */
export class JobGoneError extends AizkError {
  override readonly exitCode = ExitCode.jobCanceled
  override readonly code = 'job_canceled'
}

/** A waited-for job had not finished in time. */
export class WaitTimeoutError extends AizkError {
  override readonly exitCode = ExitCode.waitTimeout
  override readonly code = 'wait_timeout'
}

/** Raised by the scope module when a non-system caller asks for the owner connection. */
export class OwnerAccessError extends AizkError {
  override readonly exitCode = ExitCode.usage
  override readonly code = 'owner_refused'
}

/**
 * Scoped code ended the transaction the scope module opened for it (a COMMIT or ROLLBACK of its
 * own), or tried to: refused, and the connection is discarded (docs/security.md#the-login-itself).
 */
export class TransactionEscapeError extends AizkError {
  override readonly exitCode = ExitCode.usage
  override readonly code = 'transaction_escape'
  /** The connection is closed, never wiped and reused (sql/transaction.ts). */
  readonly discardsConnection = true
  constructor(message: string) {
    super(message, 'let User.transaction commit or roll back: return, or throw to roll back (docs/security.md)')
  }
}

/**
 * The app login has role-level settings (ALTER ROLE ... SET), which PostgreSQL applies to every
 * new connection of that login: scoped work refuses to run until an administrator removes them.
 */
export class AppLoginSettingsError extends AizkError {
  override readonly exitCode = ExitCode.config
  override readonly code = 'app_login_settings'
  /** The connection may carry the settings: closed, never reused (sql/transaction.ts). */
  readonly discardsConnection = true
  constructor(login: string, settings: string) {
    super(
      `the app login ${login} has role-level settings (${settings}); any session of that login can set them, and every new connection would get them, so scoped work is refused`,
      `as an administrator: ALTER ROLE ${login} RESET ALL, and ALTER ROLE ${login} IN DATABASE <db> RESET ALL (docs/security.md#the-login-itself)`,
    )
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
