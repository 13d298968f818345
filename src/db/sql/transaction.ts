/**
 * The one transaction helper: a connection of its own from `db` (or `db` itself, a client outside
 * a transaction), `begin` (plain BEGIN unless
 * the caller opens it differently: an isolation level, the scope settings of User.transaction),
 * `fn`, COMMIT; ROLLBACK when anything throws. SQL modules take the client `fn` gets, so the
 * caller decides what commits together.
 */
import type pg from 'pg'

export type Begin = string | ((client: pg.PoolClient) => Promise<unknown>)

function isPool(db: pg.Pool | pg.ClientBase): db is pg.Pool {
  return 'totalCount' in db
}

export async function withTransaction<T>(db: pg.Pool | pg.ClientBase, fn: (client: pg.PoolClient) => Promise<T>, begin: Begin = 'BEGIN'): Promise<T> {
  const pooled = isPool(db)
  const client = (pooled ? await db.connect() : db) as pg.PoolClient
  let broken: Error | undefined
  try {
    await (typeof begin === 'string' ? client.query(begin) : begin(client))
    const result = await fn(client)
    await client.query('COMMIT')
    return result
  } catch (err) {
    try {
      await client.query('ROLLBACK')
    } catch (rollbackErr) {
      // A connection that cannot roll back must not return to the pool (with a role or scopes on it).
      broken = rollbackErr as Error
    }
    throw err
  } finally {
    if (pooled) client.release(broken)
  }
}
