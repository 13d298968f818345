import type pg from 'pg'

/** Anything that runs a query: a pool, a pooled client inside the caller's transaction, a client. */
export type Queryable = Pick<pg.Pool | pg.PoolClient | pg.Client, 'query'>
