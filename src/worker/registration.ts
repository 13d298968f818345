/**
 * The worker's row in `aizk_worker`
 * (docs/pgqueuer-contract.md#what-aizk-adds-beside-pgqueuers-tables): inserted on start,
 * heartbeated with its picks (src/queue/heartbeat.ts), deleted on a clean exit, so `aizk status`
 * shows who is alive.
 */
import { readFileSync } from 'node:fs'
import os from 'node:os'
import type { Queryable } from '../db/queryable.js'

export interface WorkerRegistration {
  queueManagerId: string
  host: string
  pid: number
  version: string
  entrypoints: string[]
}

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

export function describeWorker(queueManagerId: string, entrypoints: string[]): WorkerRegistration {
  return { queueManagerId, host: os.hostname(), pid: process.pid, version: aizkVersion(), entrypoints }
}

export async function registerWorker(db: Queryable, w: WorkerRegistration): Promise<void> {
  await db.query(
    `INSERT INTO aizk_worker (queue_manager_id, host, pid, version, entrypoints)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (queue_manager_id) DO UPDATE SET heartbeat = now()`,
    [w.queueManagerId, w.host, w.pid, w.version, w.entrypoints],
  )
}

export async function deregisterWorker(db: Queryable, queueManagerId: string): Promise<void> {
  await db.query('DELETE FROM aizk_worker WHERE queue_manager_id = $1', [queueManagerId])
}
