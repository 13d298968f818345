/**
 * The entrypoints a requeue, discard or cancel filter names must exist somewhere: registered in
 * this installation (`aizk jobs types`), bound by a registered aizk worker, or holding jobs in the
 * queue (`aizk status`: a PgQueuer worker's entrypoints are only there). Any other name is a
 * typo that would match nothing and say so with exit 0: it is refused (exit 2) with the nearest
 * known names.
 */
import type { Queryable } from '../db/queryable.js'
import { jobRegistry } from '../jobs/registry.js'
import { unknownEntrypointError } from '../operator/entrypoints.js'
import { readCounts } from '../queue/counts.js'
import { entrypointsInUse } from '../queue/job-filter.js'

const FOREIGN_HINT = "an entrypoint no job here registers is taken only while it has jobs in the queue (`aizk status` lists them, PgQueuer's included)"

export async function checkFilterEntrypoints(db: Queryable, names: readonly string[] | undefined): Promise<void> {
  const registered = new Set(jobRegistry.entrypoints())
  const others = [...new Set(names ?? [])].filter((n) => !registered.has(n))
  if (others.length === 0) return
  const present = await entrypointsInUse(db, others)
  const unknown = others.find((n) => !present.has(n))
  if (unknown === undefined) return
  const inQueue = (await readCounts(db)).map((c) => c.entrypoint)
  throw unknownEntrypointError(unknown, [...new Set([...registered, ...inQueue])], FOREIGN_HINT)
}
