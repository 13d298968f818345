/**
 * A longer round-trip deadline for the statements of one handler: a view of an aizk pool whose
 * clients, while checked out through it, give each statement `seconds` instead of the pool's
 * deadline (deadline-client.ts). The handler that may rightly run a long statement says so
 * (QueueJob.statementDeadlineSeconds, ctx.poolWithDeadline); the pool itself, and every other
 * handler on it, keeps its deadline (docs/job-lifecycle.md#network-stalls). A view, not an
 * async context: nothing is paid by the handlers that do not ask.
 */
import type pg from 'pg'
import { DatabasePool } from './database-pool.js'
import type { DeadlineClient } from './deadline-client.js'

/** The largest deadline a timer can hold (setTimeout's limit), in seconds. */
export const MAX_STATEMENT_DEADLINE_SECONDS = 2_147_483

const views = new WeakMap<pg.Pool, Map<number, pg.Pool>>()

type Callback = (err: Error | undefined, ...rest: unknown[]) => void

/**
 * `pool` with `seconds` (0: none, keepalive only) as the round-trip deadline of every statement
 * run through it, its app login's pool included; a pool aizk did not open is returned as it is.
 */
export function withStatementDeadline<P extends pg.Pool>(pool: P, seconds: number): P {
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > MAX_STATEMENT_DEADLINE_SECONDS) {
    throw new RangeError(`a statement deadline must be 0 (none) to ${MAX_STATEMENT_DEADLINE_SECONDS} seconds, got ${seconds}`)
  }
  if (!(pool instanceof DatabasePool)) return pool
  const ms = Math.round(seconds * 1000)
  const byMs = views.get(pool) ?? new Map<number, pg.Pool>()
  views.set(pool, byMs)
  const known = byMs.get(ms)
  if (known) return known as P
  const view = deadlineView(pool, ms, seconds)
  byMs.set(ms, view)
  return view as unknown as P
}

function deadlineView(pool: DatabasePool, ms: number, seconds: number): DatabasePool {
  const lease = async (): Promise<pg.PoolClient> => {
    const client = await pool.connect()
    const deadline = client as unknown as DeadlineClient
    deadline.deadlineOverrideMs = ms
    // pg-pool gives each checkout its own release: the override ends with this one.
    const release = client.release
    client.release = (err?: Error | boolean) => {
      deadline.deadlineOverrideMs = undefined
      client.release = release
      return release.call(client, err)
    }
    return client
  }
  // biome-ignore lint/suspicious/noExplicitAny: pg's query overloads, passed on as they are.
  const query = (...args: any[]): any => {
    const callback: Callback | undefined = typeof args[args.length - 1] === 'function' ? args.pop() : undefined
    const run = async () => {
      const client = await lease()
      try {
        // biome-ignore lint/suspicious/noExplicitAny: as above.
        const res = await (client.query as (...a: any[]) => Promise<unknown>)(...args)
        client.release()
        return res
      } catch (err) {
        // As pg-pool's own query does: a failed statement's client is not handed out again.
        client.release(err as Error)
        throw err
      }
    }
    if (!callback) return run()
    run().then(
      (res) => callback(undefined, res),
      (err) => callback(err),
    )
  }
  const connect = (callback?: Callback) => {
    if (!callback) return lease()
    lease().then(
      (client) => callback(undefined, client, client.release),
      (err) => callback(err, undefined, () => {}),
    )
  }
  return new Proxy(pool, {
    get(target, key) {
      if (key === 'query') return query
      if (key === 'connect') return connect
      // Scoped transactions run on the app login's pool (database-pool.ts): the same deadline there.
      if (key === 'appLogin') return target.appLogin && withStatementDeadline(target.appLogin, seconds)
      return Reflect.get(target, key, target)
    },
  })
}
