/**
 * What a scoped transaction on the app login leaves behind is wiped before its connection goes
 * back to the pool (docs/security.md): temporary tables, views, functions and sequences it made,
 * session settings (a search_path of its own), a session role, prepared statements (one named
 * like a statement node-pg already prepared would run in its place), cursors kept open, LISTENs
 * and session advisory locks. The next tenant's transaction on that connection finds a connection
 * as a new one would be.
 */
import type pg from 'pg'

/** None needs a transaction of its own, so they ride in COMMIT's round trip, after it. */
export const SESSION_RESET_SQL =
  'CLOSE ALL; DISCARD TEMP; DISCARD SEQUENCES; DEALLOCATE ALL; UNLISTEN *; SELECT pg_advisory_unlock_all(); RESET ALL; RESET ROLE'

/**
 * COMMIT (a ROLLBACK when the transaction had failed, as a bare COMMIT is) and the wipe, in one
 * round trip. After COMMIT none of these fails short of a lost connection, which leaves a
 * commit in doubt anyway.
 */
export const COMMIT_AND_RESET_SQL = `COMMIT; ${SESSION_RESET_SQL}`

/** ROLLBACK and the wipe, in one round trip for the same reason: one batch, one server connection. */
export const ROLLBACK_AND_RESET_SQL = `ROLLBACK; ${SESSION_RESET_SQL}`

/** The search path a scoped transaction runs under: the temporary schema last, so it shadows nothing. */
export const SCOPED_SEARCH_PATH = 'SET LOCAL search_path = pg_catalog, public, pg_temp'

/**
 * DEALLOCATE ALL removed the server's prepared statements; node-pg remembers which names it
 * prepared on this connection and would bind them unprepared. Forget them so it prepares again.
 */
export function forgetPreparedStatements(client: pg.PoolClient): void {
  type Statements = { parsedStatements?: Record<string, string>; submittedNamedStatements?: Record<string, string> }
  const connection = (client as unknown as { connection?: Statements }).connection
  if (!connection) return
  if (connection.parsedStatements) connection.parsedStatements = {}
  if (connection.submittedNamedStatements) connection.submittedNamedStatements = {}
}
