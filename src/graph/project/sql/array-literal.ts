/**
 * SQL literals for values that must ride in a multi-statement batch, which takes no parameters
 * (User.readOnce: the whole scoped transaction in one round trip). Quoted by pg's escapeLiteral.
 */
import pg from 'pg'

type Element = string | number | boolean | null

/** An array literal: `'{"a","b\"c",NULL}'::text[]`. Numbers must be finite. */
export function arrayLiteral(values: readonly Element[], type: 'text' | 'int' | 'boolean'): string {
  const items = values.map((v) => {
    if (v === null) return 'NULL'
    if (typeof v === 'string') return `"${v.replace(/[\\"]/g, '\\$&')}"`
    if (typeof v === 'number' && !Number.isFinite(v)) throw new RangeError(`not a finite number: ${v}`)
    return String(v)
  })
  return `${pg.escapeLiteral(`{${items.join(',')}}`)}::${type}[]`
}

export function textLiteral(value: string): string {
  return pg.escapeLiteral(value)
}
