/** The services a worker runs beside those it is given. */
import { connectionLimits } from '../db/connect.js'
import { DatabasePool } from '../db/database-pool.js'
import type { WorkerEvents } from '../events.js'
import { lostStatementsService } from './lost-statements.js'
import { queueVacuumService } from './queue-vacuum.js'
import type { WorkerOptions, WorkerService } from './worker-options.js'

/** The queue table's vacuum (unless turned off), then the lost-statements check where it applies. */
export function builtinServices(o: WorkerOptions, events: WorkerEvents): WorkerService[] {
  const vacuum = o.settings.queueVacuumRows > 0 ? [queueVacuumService(o.pool, events, o.settings.queueVacuumRows)] : []
  return [...vacuum, ...lostStatements(o, events)]
}

/**
 * The handlers' pool's statements past the round-trip deadline checked on the server
 * (lost-statements.ts); not behind a transaction pooler, whose connections are not the server's.
 */
function lostStatements(o: WorkerOptions, events: WorkerEvents): WorkerService[] {
  const handlers = o.workPool
  if (!(handlers instanceof DatabasePool) || handlers === o.pool || handlers.clientConfig.namedStatements === false) return []
  return [lostStatementsService({ pool: o.pool, handlers, deadlineMs: connectionLimits(o.settings).deadlineMs, events })]
}
