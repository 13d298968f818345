/**
 * JSON that PostgreSQL's `jsonb` always accepts. An error message or a traceback can carry text
 * `jsonb` refuses (a NUL character: "unsupported Unicode escape sequence"; half of a surrogate
 * pair) or be huge (a handler that throws a whole response body). Every string in the value,
 * keys included, is made storable: NUL becomes the two characters `\0`, a lone surrogate becomes
 * U+FFFD, and a string longer than MAX_STORED_CHARS is cut with a note of how much was cut.
 */

/** Characters kept of one string in a stored error (a stack trace fits; a dumped body does not). */
export const MAX_STORED_CHARS = 16_384

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** One string in the form `jsonb` stores. */
export function storableText(text: string, maxChars = MAX_STORED_CHARS): string {
  let out = text.includes('\0') ? text.replaceAll('\0', '\\0') : text
  out = out.replace(LONE_SURROGATE, '\ufffd')
  if (out.length > maxChars) {
    let cut = maxChars
    // Never split a surrogate pair at the cut.
    if (/[\ud800-\udbff]/.test(out[cut - 1])) cut--
    out = `${out.slice(0, cut)}… (${out.length - cut} more characters)`
  }
  return out
}

/** A deep copy of a JSON-shaped value with every string (and key) storable. */
export function storableValue(value: unknown, maxChars = MAX_STORED_CHARS): unknown {
  if (typeof value === 'string') return storableText(value, maxChars)
  if (Array.isArray(value)) return value.map((v) => storableValue(v, maxChars))
  if (value !== null && typeof value === 'object') {
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return storableValue(JSON.parse(JSON.stringify(value)), maxChars)
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[storableText(k, maxChars)] = storableValue(v, maxChars)
    return out
  }
  return value
}

/** JSON text of `value` that a `jsonb` parameter accepts. */
export function storableJson(value: unknown): string {
  return JSON.stringify(storableValue(value))
}
