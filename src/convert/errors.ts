/** Why a conversion failed: a retryable hiccup, or a condition that no retry will change. */

import { PermanentJobError } from '../permanent-error.js'

export { PermanentJobError }

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
