/**
 * A longer round-trip deadline for the statements of one piece of work: a handler whose statement
 * may rightly run past AIZK_DB_DEADLINE_SECONDS says so, and its pool's clients (deadline-client.ts)
 * give that statement the longer deadline instead of destroying its connection. Carried in an
 * AsyncLocalStorage, so it reaches the statements a handler runs through any helper (the scope
 * module, a transaction) without a parameter; it costs nothing until a handler asks for it
 * (docs/job-lifecycle.md#network-stalls).
 */
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks'

const deadlines = new AsyncLocalStorage<number>()
let used = false

/** The largest deadline a timer can hold (setTimeout's limit), in seconds. */
export const MAX_STATEMENT_DEADLINE_SECONDS = 2_147_483

/**
 * Run `fn` with `seconds` as the round-trip deadline of every statement it runs on aizk's pools,
 * instead of the pool's own; 0 leaves those statements without a deadline (TCP keepalive only).
 */
export function withStatementDeadline<T>(seconds: number, fn: () => T): T {
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > MAX_STATEMENT_DEADLINE_SECONDS) {
    throw new RangeError(`a statement deadline must be 0 (none) to ${MAX_STATEMENT_DEADLINE_SECONDS} seconds, got ${seconds}`)
  }
  used = true
  return deadlines.run(Math.round(seconds * 1000), fn)
}

/** The deadline (ms) asked for by the work running now, undefined when none asked (the pool's own). */
export function statementDeadlineMs(): number | undefined {
  return used ? deadlines.getStore() : undefined
}

/**
 * `callback` bound to the work running now when it asked for a deadline: a pool that hands the
 * callback a client later (from another caller's release) must still run its statement under it.
 */
// biome-ignore lint/suspicious/noExplicitAny: any callback, bound as it is.
export function bindToStatementDeadline<F extends (...args: any[]) => unknown>(callback: F): F {
  return statementDeadlineMs() === undefined ? callback : (AsyncResource.bind(callback) as F)
}
