/**
 * What a retry or a hold writes when the database refused it as given (a trigger, a constraint,
 * a value the stored form still cannot take): the same move of the row with an error that names
 * only the refusal, never the original text, so it cannot be refused for the same reason.
 */
import type { HoldItem, LastError, RetryItem } from '../queue/retry.js'
import { storableText } from '../queue/storable-json.js'

function refusalOf(cause: unknown): string {
  const { code, message } = (cause ?? {}) as { code?: unknown; message?: unknown }
  return storableText(`${typeof code === 'string' ? `${code} ` : ''}${String(message ?? cause)}`, 300)
}

function fallbackError(error: LastError, cause: unknown): LastError {
  return {
    type: storableText(error.type, 100),
    message: `the error of this job could not be stored as it was (the database refused it: ${refusalOf(cause)})`,
    at: error.at,
    attempt: error.attempt,
  }
}

export function retryFallback(item: RetryItem, cause: unknown): RetryItem {
  return { id: item.id, delayMs: item.delayMs, error: fallbackError(item.error, cause) }
}

export function holdFallback(item: HoldItem, cause: unknown): HoldItem {
  const error = fallbackError(item.error, cause)
  return {
    id: item.id,
    attemptsBump: item.attemptsBump,
    error,
    record: {
      job_id: item.record.job_id,
      timestamp: item.record.timestamp,
      exception_type: error.type,
      exception_message: error.message,
      traceback: '(not stored: see exception_message)',
      additional_context: { outcomeFallback: true },
    },
  }
}
