/** Payloads are JSON bytes in `pgqueuer.payload` (bytea), as PgQueuer stores them. */
import type { ZodError } from 'zod'
import { UsageError } from '../errors.js'

export function encodePayload(payload: unknown): Buffer | null {
  if (payload === undefined || payload === null) return null
  if (Buffer.isBuffer(payload)) return payload
  return Buffer.from(JSON.stringify(payload))
}

/** Bytes back to a JSON value; throws PayloadError for bytes that are not JSON. */
export function decodePayload(entrypoint: string, bytes: Buffer | null): unknown {
  if (bytes === null || bytes.length === 0) return null
  try {
    return JSON.parse(bytes.toString('utf8'))
  } catch (err) {
    throw new PayloadError(entrypoint, [`payload is not JSON: ${(err as Error).message}`])
  }
}

/** A payload that fails its job's schema: exit 2 for a command; held at once in a worker. */
export class PayloadError extends UsageError {
  constructor(
    readonly entrypoint: string,
    readonly issues: string[],
  ) {
    super(
      `payload for ${entrypoint} is invalid:\n${issues.map((i) => `  ${i}`).join('\n')}`,
      'fix the payload to match the job schema (see `aizk jobs types`)',
      issues,
    )
  }

  static fromZod(entrypoint: string, error: ZodError): PayloadError {
    return new PayloadError(
      entrypoint,
      error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(payload)'}: ${i.message}`),
    )
  }
}
