/**
 * A server that answers but cannot write: a hot standby, or a primary turned read-only (a Patroni
 * demotion that keeps connections open, `default_transaction_read_only = on`, a new leader still
 * read-only for a moment). For aizk that is a connection fault, not a bug: the connection is
 * discarded, the worker counts an outage and reconnects, a command exits 4 with
 * `database_read_only` (docs/running-the-worker.md#read-only-servers).
 */
import { DatabaseReadOnlyError, errorMessage } from '../errors.js'

/** SQLSTATE read_only_sql_transaction: a write in a read-only transaction, a LISTEN or NOTIFY on a standby. */
export const READ_ONLY_SQLSTATE = '25006'
/** What a standby answers to the functions it cannot run at all (txid_current, pg_switch_wal, ...), whatever their SQLSTATE. */
const RECOVERY_MESSAGE = /during recovery|recovery is in progress/i

/** Whether `err` is the server refusing a write because it is read-only or in recovery. */
export function isWriteRefused(err: unknown): boolean {
  const code = (err as { code?: unknown } | null | undefined)?.code
  if (code === READ_ONLY_SQLSTATE) return true
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && RECOVERY_MESSAGE.test(errorMessage(err))
}

/**
 * Why a connection cannot write, read from the parameters the server reported when it connected
 * and after each change (PostgreSQL 14 and later report `in_hot_standby` and
 * `default_transaction_read_only`): no round trip. Undefined when it can, or when nothing was reported.
 */
export function readOnlyReason(reported: ReadonlyMap<string, string>): string | undefined {
  if (reported.get('in_hot_standby') === 'on') return 'a hot standby (in recovery)'
  if (reported.get('default_transaction_read_only') === 'on') return 'read-only (default_transaction_read_only is on)'
  return undefined
}

/** Where the operator should point aizk instead. */
export const PRIMARY_HINT = 'point AIZK_DATABASE_URL at the primary (Patroni: HAProxy routing by its /primary check; CloudNativePG: the <cluster>-rw service)'

/** The operator-facing error; `transient`: a new leader may accept writes in a moment (a starting worker waits). */
export function readOnlyError(where: string, why: string): DatabaseReadOnlyError {
  return new DatabaseReadOnlyError(`PostgreSQL at ${where} is ${why}: aizk needs a server that accepts writes`, PRIMARY_HINT, {
    code: READ_ONLY_SQLSTATE,
    transient: true,
  })
}

export function readOnlyReasonFromRow(row: { recovery: boolean; read_only: boolean } | undefined): string | undefined {
  if (row?.recovery) return 'a hot standby (in recovery)'
  if (row?.read_only) return 'read-only (transaction_read_only is on)'
  return undefined
}
