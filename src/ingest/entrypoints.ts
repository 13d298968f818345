/**
 * The pipeline's queue entrypoints, owned here so ingest enqueues its follow-up work without
 * knowing the job classes above it (the inventory's classes declare these same names).
 */
import type { Queryable } from '../db/queryable.js'
import { enqueue } from '../queue/enqueue.js'
import { JobPriority } from '../queue/priority.js'

/** DoclingConversionJob: convert an original to Markdown, chunk it, store it. */
export const CONVERT_ARTIFACT_ENTRYPOINT = 'aizk_convert_artifact'

/** Queue an artifact's conversion in the caller's transaction (dedupe key: its content id); false when one is live. */
export function enqueueConversion(db: Queryable, ref: { artifactId: string; scopes: string[] }, contentId: string): Promise<string | false> {
  return enqueue(db, { entrypoint: CONVERT_ARTIFACT_ENTRYPOINT, priority: JobPriority.artifact, payload: ref, dedupeKey: contentId })
}
