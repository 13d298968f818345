/**
 * What scoped code gets instead of the raw client: one that cannot end the transaction it runs
 * in. Behind a transaction pooler a statement sent after the transaction ended runs on whichever
 * server connection is free, so a session setting, temporary table or session advisory lock made
 * there (or made before a COMMIT of the scoped code's own) would stay on a server connection the
 * closing wipe never reaches (docs/deployment.md#pgbouncer). So:
 *
 * - every query is sent by the extended protocol, which the server parses as exactly one
 *   statement (a `select 1; commit; set ...` string is refused by PostgreSQL itself);
 * - a statement that ends the transaction (COMMIT, END, ROLLBACK other than ROLLBACK TO, ABORT,
 *   PREPARE TRANSACTION) is refused before it is sent: with one statement, its first word says;
 * - queries run one after another, and after each the transaction status the server reported
 *   (ReadyForQuery) is read: outside a transaction means something ended it, and every later
 *   query is refused, so nothing more is sent on it; the scope module then discards the connection.
 */
import type pg from 'pg'
import { TransactionEscapeError } from '../errors.js'

/** Whitespace, comments and empty statements before a statement's first word (PostgreSQL's lexer). */
function skipNoise(sql: string, from: number): number {
  let i = from
  while (i < sql.length) {
    const c = sql[i]
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || c === ';') i++
    else if (c === '-' && sql[i + 1] === '-') {
      while (i < sql.length && sql[i] !== '\n' && sql[i] !== '\r') i++
    } else if (c === '/' && sql[i + 1] === '*') {
      // Block comments nest.
      let depth = 0
      do {
        if (sql[i] === '/' && sql[i + 1] === '*') {
          depth++
          i += 2
        } else if (sql[i] === '*' && sql[i + 1] === '/') {
          depth--
          i += 2
        } else i++
      } while (depth > 0 && i < sql.length)
    } else break
  }
  return i
}

function words(sql: string, count: number): string[] {
  const out: string[] = []
  let i = 0
  while (out.length < count) {
    i = skipNoise(sql, i)
    const m = /^[A-Za-z_]+/.exec(sql.slice(i, i + 64))
    if (!m) break
    out.push(m[0].toLowerCase())
    i += m[0].length
  }
  return out
}

/** Whether the single statement `sql` ends the transaction block it runs in. */
export function endsTransaction(sql: string): boolean {
  const [first, second, third] = words(sql, 3)
  if (first === 'commit' || first === 'end' || first === 'abort') return true
  if (first === 'prepare') return second === 'transaction'
  if (first !== 'rollback') return false
  // ROLLBACK [WORK | TRANSACTION] TO [SAVEPOINT] name stays inside the transaction.
  const next = second === 'work' || second === 'transaction' ? third : second
  return next !== 'to'
}

type Callback = (err: Error | null, res?: unknown) => void

/** True while `client` is inside a transaction block (or its status is not known). */
export function inTransaction(client: pg.ClientBase): boolean {
  const status = (client as { getTransactionStatus?: () => string | null }).getTransactionStatus?.()
  return status !== 'I'
}

export interface GuardedClient {
  client: pg.PoolClient
  /** Why the guarded client stopped sending, once it did. */
  escaped(): TransactionEscapeError | undefined
}

/** The client scoped code gets in place of `client` (see the header). */
export function guardTransaction(client: pg.PoolClient): GuardedClient {
  let ended: TransactionEscapeError | undefined
  let queue: Promise<unknown> = Promise.resolve()
  const fail = (why: string) => {
    ended ??= new TransactionEscapeError(why)
    return ended
  }
  const run = async (config: unknown, values: unknown): Promise<unknown> => {
    if (ended) throw ended
    if (!inTransaction(client)) throw fail('the scoped transaction had already ended')
    if (config && typeof (config as { submit?: unknown }).submit === 'function') {
      throw fail('cursors and streams are not available inside a scoped transaction: read in pages with LIMIT')
    }
    const text = typeof config === 'string' ? config : String((config as { text?: unknown })?.text ?? '')
    if (endsTransaction(text)) throw fail(`scoped code sent "${text.trim().slice(0, 40)}", which would end the scoped transaction`)
    const query = typeof config === 'string' ? { text: config, queryMode: 'extended' } : { ...(config as object), queryMode: 'extended' }
    try {
      return await (values === undefined ? client.query(query as pg.QueryConfig) : client.query(query as pg.QueryConfig, values as unknown[]))
    } finally {
      if (!inTransaction(client)) fail('a statement of the scoped code ended the scoped transaction')
    }
  }
  // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this wraps them all.
  const query = (config: any, values?: any, callback?: any): any => {
    const cb: Callback | undefined = typeof values === 'function' ? values : callback
    const args = typeof values === 'function' ? undefined : values
    // One after another: the next query is sent only once the last one's status was read.
    const result = queue
      .then(() => run(config, args))
      .then((res) => {
        if (ended) throw ended
        return res
      })
    queue = result.catch(() => {})
    if (!cb) return result
    result.then(
      (res) => cb(null, res),
      (err) => cb(err as Error),
    )
    return undefined
  }
  const guarded = new Proxy(client, {
    get(target, prop) {
      if (prop === 'query') return query
      const value = Reflect.get(target, prop, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return { client: guarded, escaped: () => ended }
}
