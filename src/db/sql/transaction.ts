/**
 * The one transaction helper: a connection of its own from `db` (or `db` itself, a client outside
 * a transaction), `begin` (plain BEGIN unless
 * the caller opens it differently: an isolation level, the scope settings of User.transaction),
 * `fn`, COMMIT; ROLLBACK when anything throws. SQL modules take the client `fn` gets, so the
 * caller decides what commits together.
 */
import type pg from 'pg'
import { COMMIT_AND_RESET_SQL, forgetPreparedStatements, ROLLBACK_AND_RESET_SQL } from './session-reset.js'

export type Begin = string | ((client: pg.PoolClient) => Promise<unknown>)

function isPool(db: pg.Pool | pg.ClientBase): db is pg.Pool {
  return 'totalCount' in db
}

/**
 * `resetSession`: wipe what `fn` left on the connection (session-reset.ts) before it returns to
 * the pool, in COMMIT's (or ROLLBACK's) round trip, so a transaction pooler runs the wipe on the
 * server connection the transaction had; a connection that cannot be wiped is closed instead. A
 * `fn` that ended the transaction itself (TransactionEscapeError) gets nothing more sent: its
 * connection is closed, as is one the caller's `begin` refused (an error with `discardsConnection`).
 */
export async function withTransaction<T>(
  db: pg.Pool | pg.ClientBase,
  fn: (client: pg.PoolClient) => Promise<T>,
  begin: Begin = 'BEGIN',
  resetSession = false,
): Promise<T> {
  const pooled = isPool(db)
  const client = (pooled ? await db.connect() : db) as pg.PoolClient
  let broken: Error | undefined
  try {
    await (typeof begin === 'string' ? client.query(begin) : begin(client))
    const result = await fn(client)
    await client.query(resetSession ? COMMIT_AND_RESET_SQL : 'COMMIT')
    if (resetSession) forgetPreparedStatements(client)
    return result
  } catch (err) {
    broken = (err as { discardsConnection?: boolean }).discardsConnection
      ? (err as Error)
      : resetSession
        ? await rollBackAndReset(client)
        : await rollBack(client)
    throw err
  } finally {
    if (pooled) client.release(broken)
  }
}

async function rollBackAndReset(client: pg.PoolClient): Promise<Error | undefined> {
  try {
    await client.query(ROLLBACK_AND_RESET_SQL)
    forgetPreparedStatements(client)
    return undefined
  } catch (err) {
    return err as Error
  }
}

/**
 * A whole transaction sent as one multi-statement batch (`BEGIN; ...; COMMIT`): one round trip.
 * A failed statement stops the batch inside its open transaction, so it is rolled back here as
 * withTransaction does. Returns the result of every statement of the batch.
 */
export async function batchTransaction<R extends pg.QueryResultRow>(pool: pg.Pool, batch: string): Promise<pg.QueryResult<R>[]> {
  const client = await pool.connect()
  let broken: Error | undefined
  try {
    return (await client.query(batch)) as unknown as pg.QueryResult<R>[]
  } catch (err) {
    broken = await rollBack(client)
    throw err
  } finally {
    client.release(broken)
  }
}

/** ROLLBACK; a connection that cannot roll back must not return to the pool (with a role or scopes on it): its error is returned for release(). */
async function rollBack(client: pg.PoolClient): Promise<Error | undefined> {
  try {
    await client.query('ROLLBACK')
    return undefined
  } catch (rollbackErr) {
    return rollbackErr as Error
  }
}
