/**
 * An error no retry can fix (no converter configured, a file the converter rejects, a missing
 * pg_dump): a handler throws it and the worker holds the job at once instead of retrying.
 */
export class PermanentJobError extends Error {
  readonly permanent = true
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message)
    this.name = new.target.name
  }
}

/** Thrown errors from other copies of aizk (or plain objects) count by their `permanent` flag. */
export function isPermanentError(err: unknown): boolean {
  return err instanceof PermanentJobError || (typeof err === 'object' && err !== null && (err as { permanent?: unknown }).permanent === true)
}
