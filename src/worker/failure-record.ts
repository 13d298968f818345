/** What a failed run leaves behind: its error as stored and shown, and the traceback row of a held job. */
import { PayloadError } from '../queue/payload.js'
import type { PickedJob } from '../queue/pick.js'
import type { LastError, TracebackRecord } from '../queue/retry.js'
import { storableText } from '../queue/storable-json.js'

/** The error as it is stored and shown (storable-json.ts: no NUL, bounded). */
export function errorInfo(err: unknown, attempt: number): LastError {
  const at = new Date().toISOString()
  if (err instanceof Error) return { type: storableText(err.name || err.constructor.name), message: storableText(String(err.message)), at, attempt }
  return { type: typeof err, message: storableText(String(err)), at, attempt }
}

/** The traceback row of a job held after its last attempt (`died`: its worker stopped heartbeating). */
export function tracebackRecord(job: PickedJob, err: unknown, lastError: LastError, maxAttempts: number, died: boolean): TracebackRecord {
  return {
    job_id: job.id,
    timestamp: lastError.at,
    exception_type: lastError.type,
    exception_message: lastError.message,
    traceback: err instanceof Error && err.stack ? err.stack : String(err),
    additional_context: {
      entrypoint: job.entrypoint,
      attempts: lastError.attempt,
      maxAttempts,
      ...(err instanceof PayloadError ? { validationIssues: err.issues } : {}),
      ...(died ? { reason: 'worker died' } : {}),
    },
  }
}
