/**
 * The scope set a fan-out job runs for, read off its payload, so the worker's events (live view,
 * JSON lines) can name it. Only scoped passes are decoded: chunk and other on-write jobs, the
 * high-volume ones, cost nothing here. A payload that does not decode names no set (the
 * executor then holds the job with the validation error).
 */
import type { JobClass } from '../jobs/queue-job.js'
import { decodePayload } from '../queue/payload.js'
import type { PickedJob } from '../queue/pick.js'

export function fanOutScopes(job: PickedJob, cls: JobClass | undefined): string[] | undefined {
  if (cls?.kind !== 'scoped') return undefined
  try {
    const scopes = (decodePayload(job.entrypoint, job.payload) as { scopes?: unknown } | null)?.scopes
    return Array.isArray(scopes) && scopes.every((s) => typeof s === 'string') ? [...scopes].sort() : undefined
  } catch {
    return undefined
  }
}
