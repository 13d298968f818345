/**
 * The checks behind the health port's probes (docs/running-the-worker.md#read-only-servers,
 * docs/job-lifecycle.md#network-stalls): each answers `{ ok, detail }`, and each database check is
 * bounded by a timeout so a probe never hangs, whatever the database does.
 */
import type pg from 'pg'
import { readOnlyNow } from '../db/connect.js'
import { OVERDUE_SLACK_MS as CALL_SLACK_MS } from '../db/deadline-client.js'
import { isAhead, schemaState } from '../db/migrate.js'
import { errorMessage } from '../errors.js'
import type { WorkerProbe } from './health.js'
import { withTimeout } from './with-timeout.js'

export type Check = { ok: boolean; detail?: string }

/** What the checks read: the worker (when there is one to ask) and the bounds they hold it to. */
export interface CheckContext {
  pool: pg.Pool
  appRole: string
  probe?: WorkerProbe
  draining(): boolean
  /** When the service started: the loop's age before its first turn. */
  startedAt: number
  loopStaleMs: number
  /** Bound on each database check. */
  timeoutMs: number
  /** The round-trip deadline. */
  deadlineMs: number
}

/** /livez: with the worker to ask, its own round trips are the database check, so /livez never waits on the database. */
export async function livenessChecks(ctx: CheckContext): Promise<Record<string, Check>> {
  const probe = ctx.probe
  if (!probe) return { loop: loopCheck(ctx), database: await databaseCheck(ctx) }
  // Draining is alive, whatever the database does: the drain has its own deadline.
  if (ctx.draining()) return { loop: loopCheck(ctx) }
  return {
    loop: loopCheck(ctx),
    picks: picksCheck(probe, ctx.deadlineMs),
    calls: callsCheck(probe, ctx.deadlineMs),
    handlers: handlersCheck(probe),
  }
}

/** /readyz: not draining, the schema current, and a server that accepts writes. */
export async function readinessChecks(ctx: CheckContext): Promise<Record<string, Check>> {
  const notDraining: Check = ctx.draining() ? { ok: false, detail: 'draining' } : { ok: true }
  return { draining: notDraining, ...(await schemaAndWritableChecks(ctx)) }
}

async function databaseCheck(ctx: CheckContext): Promise<Check> {
  try {
    await withTimeout(ctx.pool.query('select 1'), ctx.timeoutMs, 'select 1')
    return { ok: true }
  } catch (err) {
    return { ok: false, detail: errorMessage(err) }
  }
}

function loopCheck(ctx: CheckContext): Check {
  if (!ctx.probe || ctx.draining()) return { ok: true }
  const since = ctx.probe.lastTurnAt || ctx.startedAt
  const age = Date.now() - since
  return age <= ctx.loopStaleMs ? { ok: true, detail: `last turn ${age} ms ago` } : { ok: false, detail: `no turn for ${age} ms` }
}

/** The loop's picks come back: one that tried and got nothing back for longer than the deadline is stuck. */
function picksCheck(probe: WorkerProbe, deadlineMs: number): Check {
  const stalled = probe.pickStalledMs ?? 0
  if (stalled <= deadlineMs) return { ok: true }
  return { ok: false, detail: `no pick came back for ${stalled} ms (deadline ${deadlineMs} ms)` }
}

function callsCheck(probe: WorkerProbe, deadlineMs: number): Check {
  const age = probe.oldestCallMs ?? 0
  if (age <= deadlineMs + CALL_SLACK_MS) return { ok: true }
  return { ok: false, detail: `a database call has waited ${age} ms (deadline ${deadlineMs} ms)` }
}

/**
 * A handler's statement is ended at its deadline (the handlers' pool has one, and a longer one a
 * handler asked for): one still waiting past it, or one without a deadline past the job timeout
 * (its job already ended), holds a connection nothing ends.
 */
function handlersCheck(probe: WorkerProbe): Check {
  const stuck = probe.stuckHandlerCalls?.(CALL_SLACK_MS) ?? 0
  if (stuck === 0) return { ok: true }
  return { ok: false, detail: `${stuck} handler statement(s) waited past their deadline (or, without one, the job timeout): their connections are not ending` }
}

/** The schema, and whether the server the check reached accepts writes (its reported parameters: no extra round trip on PostgreSQL 14+). */
async function schemaAndWritableChecks(ctx: CheckContext): Promise<{ writable: Check; schema: Check }> {
  try {
    const { state, readOnly } = await withTimeout(readSchemaAndReadOnly(ctx), ctx.timeoutMs, 'schema check')
    return { writable: writableCheck(readOnly, ctx.probe?.databaseDown), schema: schemaStateCheck(state) }
  } catch (err) {
    const failed = { ok: false, detail: errorMessage(err) }
    return { writable: failed, schema: failed }
  }
}

async function readSchemaAndReadOnly(ctx: CheckContext) {
  const client = await ctx.pool.connect()
  try {
    return { state: await schemaState(client, { appRole: ctx.appRole }), readOnly: await readOnlyNow(client) }
  } finally {
    client.release()
  }
}

function writableCheck(readOnly: string | undefined, down: string | undefined): Check {
  if (readOnly) return { ok: false, detail: `the server is ${readOnly}` }
  if (down) return { ok: false, detail: `database away: ${down}` }
  return { ok: true }
}

function schemaStateCheck(state: Awaited<ReturnType<typeof schemaState>>): Check {
  if (!state.installed) return { ok: false, detail: 'schema not installed' }
  if (state.pending.length) return { ok: false, detail: `schema at ${state.current}, needs ${state.latest}` }
  if (isAhead(state)) return { ok: true, detail: `version ${state.current}, installed by a newer aizk` }
  if (state.pendingDefinitions.length) return { ok: false, detail: `${state.pendingDefinitions.length} schema definitions changed: run aizk install` }
  return { ok: true, detail: `version ${state.current}` }
}
