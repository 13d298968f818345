/**
 * What a worker writes into its `aizk_worker` row (the SQL is src/db/sql/aizk-worker.ts): its
 * host, pid, aizk's version, the entrypoints it binds and their global limits, and its heartbeat
 * timeout (past which the row is dead).
 */
import { readFileSync } from 'node:fs'
import os from 'node:os'
import type { WorkerRegistration } from '../db/sql/aizk-worker.js'
import { concurrencyLimitOf, type JobClass } from '../jobs/queue-job.js'

let cachedVersion: string | undefined

/** aizk's package version, read once from package.json. */
export function aizkVersion(): string {
  if (cachedVersion) return cachedVersion
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }
    cachedVersion = pkg.version ?? 'unknown'
  } catch {
    cachedVersion = 'unknown'
  }
  return cachedVersion
}

export function describeWorker(
  queueManagerId: string,
  entrypoints: string[],
  limits: Record<string, number>,
  heartbeatTimeoutSeconds: number,
): WorkerRegistration {
  return { queueManagerId, host: os.hostname(), pid: process.pid, version: aizkVersion(), entrypoints, limits, heartbeatTimeoutSeconds }
}

/** The global limits of the bound entrypoints that have one (above 0), as the row records them. */
export function globalLimits(jobs: Iterable<JobClass>, settings: Parameters<typeof concurrencyLimitOf>[1]): Record<string, number> {
  return Object.fromEntries([...jobs].map((j) => [j.entrypoint, concurrencyLimitOf(j, settings)] as const).filter(([, limit]) => limit > 0))
}
