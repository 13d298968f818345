/** The statements that open a scoped transaction and the owner connection. */
import { SCOPED_SEARCH_PATH } from '../../db/sql/session-reset.js'

/**
 * Which server connections still need their loaded settings read (pg_settings: a scan of every
 * setting, milliseconds, so once per server connection): `true` this one, `false` none (a client
 * connection already read, 1:1 with its server), or every server connection except those listed
 * (behind a transaction pooler, where a client connection is no server connection), by
 * BACKEND_KEY.
 */
export type LoadedCheck = boolean | readonly string[]

/** A server connection's identity across pooled clients: its pid and start time. */
const BACKEND_KEY = `pg_backend_pid()::text || '@' || (SELECT extract(epoch FROM backend_start)::text FROM pg_stat_get_activity(pg_backend_pid()))`
const KEY = /^[0-9]+@[0-9.]+$/

/**
 * Role-level settings of the session's login (ALTER ROLE <login> [IN DATABASE] SET), which any
 * session of that login may write and every new connection of it loads; and, as `loaded` says,
 * those this connection loaded when it started. NULL: none.
 */
function loginSettings(loaded: LoadedCheck): string {
  const defined = `SELECT unnest(s.setconfig) AS setting FROM pg_db_role_setting s
      WHERE s.setrole = quote_ident(session_user)::regrole AND s.setdatabase IN (0, (SELECT oid FROM pg_database WHERE datname = current_database()))`
  const carried = `SELECT name || '=' || current_setting(name) FROM pg_settings WHERE source IN ('user', 'database user')`
  const agg = (from: string) => `(SELECT string_agg(setting, ', ' ORDER BY setting) FROM (${from}) found)`
  if (loaded === false) return agg(defined)
  if (loaded === true) return agg(`${defined} UNION ${carried}`)
  const known = loaded.filter((k) => KEY.test(k))
  // A subquery in a CASE branch not taken is never run.
  return `CASE WHEN ${BACKEND_KEY} = ANY('{${known.join(',')}}'::text[]) THEN ${agg(defined)} ELSE ${agg(`${defined} UNION ${carried}`)} END`
}

/**
 * The settings a role default could set to break or subvert the next tenant's transaction, pinned
 * for this one (whatever the login's defaults): read-write at READ COMMITTED (in BEGIN itself),
 * row security on (off turns a filtered read into an error), the scoped search path, the app role.
 */
const PINNED =
  "SELECT set_config('row_security', 'on', true), set_config('default_transaction_read_only', 'off', true), set_config('default_transaction_isolation', 'read committed', true)"

/**
 * On the app login, one round trip: begin; report the backend pid and the start time (ISO 8601
 * with microseconds: exact, whatever either session's DateStyle) the owner's proof is computed
 * for, and the login's role-level settings (loginSettings; with a list, the server connection's
 * BACKEND_KEY too), read as the login, which alone sees its own backend's start; then drop to the
 * app role, the scoped search path and the pinned settings. `role` is a validated role name. The
 * report is the second result.
 */
export function appLoginBegin(role: string, loaded: LoadedCheck): string {
  const backend = Array.isArray(loaded) ? `${BACKEND_KEY} AS backend, ` : ''
  return (
    'BEGIN ISOLATION LEVEL READ COMMITTED READ WRITE; ' +
    `SELECT pg_backend_pid() AS pid, to_char(transaction_timestamp(), 'YYYY-MM-DD"T"HH24:MI:SS.USOF') AS started, ` +
    `session_user::text AS login, ${backend}${loginSettings(loaded)} AS login_settings; ` +
    `SET LOCAL ROLE "${role}"; ${SCOPED_SEARCH_PATH}; ${PINNED}`
  )
}

/**
 * On the owner login, one round trip: the sets and their proof, computed while still the owner,
 * then the role drops to the app role. `role` is a validated role name, `read` and `write`
 * validated scope array literals.
 */
export function ownerBegin(role: string, read: string, write: string): string {
  return (
    `BEGIN; SELECT set_config('aizk.read_scopes', '${read}', true), set_config('aizk.write_scopes', '${write}', true), ` +
    `set_config('aizk.scope_proof', aizk_scope_proof('${read}', '${write}', pg_backend_pid(), transaction_timestamp()), true); ` +
    `SET LOCAL ROLE "${role}"`
  )
}

export const SCOPE_PROOF = 'SELECT aizk_scope_proof($1::uuid[], $2::uuid[], $3::int, $4::timestamptz) AS proof'

export const SET_SCOPES_WITH_PROOF =
  "SELECT set_config('aizk.read_scopes', $1, true), set_config('aizk.write_scopes', $2, true), set_config('aizk.scope_proof', $3, true)"

export const BEGIN_READ_ONLY = 'BEGIN READ ONLY'
