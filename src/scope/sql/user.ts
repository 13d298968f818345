/** The statements that open a scoped transaction and the owner connection. */
import { SCOPED_SEARCH_PATH } from '../../db/sql/session-reset.js'

/**
 * On the app login: begin, drop to the app role, the scoped search path, and report the backend
 * pid and the start time (ISO 8601 with microseconds: exact, whatever either session's DateStyle)
 * the owner's proof is computed for. `role` is a validated role name.
 */
export function appLoginBegin(role: string): string {
  return `BEGIN; SET LOCAL ROLE "${role}"; ${SCOPED_SEARCH_PATH}; SELECT pg_backend_pid() AS pid, to_char(transaction_timestamp(), 'YYYY-MM-DD"T"HH24:MI:SS.USOF') AS started`
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

export const SET_SCOPES_WITH_PROOF = "SELECT set_config('aizk.read_scopes', $1, true), set_config('aizk.write_scopes', $2, true), set_config('aizk.scope_proof', $3, true)"

export const BEGIN_READ_ONLY = 'BEGIN READ ONLY'
