/** Why a conversion failed: a retryable hiccup, or a condition that no retry will change. */

/**
 * No retry can succeed (no converter configured, a file the converter rejects): the job is held
 * at once, with this message on the held row. `permanent` is what the worker looks at.
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

export class ConverterMissingError extends PermanentJobError {}

/** The Docling service answered with an error or unreachable: retried with the job's attempts. */
export class DoclingError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message)
    this.name = 'DoclingError'
  }
}
