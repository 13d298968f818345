import { createHash } from 'node:crypto'

/** The content id of an original: the SHA-256 of its bytes, lower-case hex. */
export function contentIdOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex')
}

export function isContentId(value: string): boolean {
  return /^[0-9a-f]{64}$/.test(value)
}
