/**
 * A job's payload schema as an operator reads it: one field per key of the zod object, with
 * its type (`uuid[] (1+)`, `ISO datetime`, `number = 1`) and whether it is required. Read from
 * zod's own schema description, so it cannot drift from what `enqueue` checks.
 */
import type { z } from 'zod'

export interface PayloadField {
  name: string
  type: string
  required: boolean
  /** The value zod fills in when the field is left out. */
  default?: unknown
}

export interface PayloadShape {
  /** `object` (fields listed), `empty` (nothing to send), `bytes` (raw bytes) or `any` (any JSON). */
  kind: 'object' | 'empty' | 'bytes' | 'any'
  fields: PayloadField[]
  /** One line: `{captureKey: string, scopes: uuid[] (1+), quantity?: number = 1}`. */
  summary: string
}

interface Def {
  typeName?: string
  innerType?: z.ZodTypeAny
  schema?: z.ZodTypeAny
  type?: z.ZodTypeAny
  checks?: { kind: string; value?: unknown }[]
  minLength?: { value: number } | null
  values?: unknown
  value?: unknown
  options?: z.ZodTypeAny[]
  valueType?: z.ZodTypeAny
  defaultValue?: () => unknown
  shape?: () => Record<string, z.ZodTypeAny>
}

const def = (s: z.ZodTypeAny): Def => (s as unknown as { _def: Def })._def

/** Peel what does not change the wire shape: effects (transforms, refinements), nullish wrappers, defaults. */
function peel(s: z.ZodTypeAny): { inner: z.ZodTypeAny; optional: boolean; default?: unknown } {
  let inner = s
  let optional = false
  let dflt: unknown
  for (;;) {
    const d = def(inner)
    if (d.typeName === 'ZodEffects' && d.schema) inner = d.schema
    else if ((d.typeName === 'ZodOptional' || d.typeName === 'ZodNullable') && d.innerType) {
      optional = true
      inner = d.innerType
    } else if (d.typeName === 'ZodDefault' && d.innerType) {
      optional = true
      dflt = d.defaultValue?.()
      inner = d.innerType
    } else if ((d.typeName === 'ZodBranded' || d.typeName === 'ZodReadonly' || d.typeName === 'ZodCatch') && (d.type ?? d.innerType)) {
      inner = (d.type ?? d.innerType) as z.ZodTypeAny
    } else return { inner, optional, default: dflt }
  }
}

function typeOf(s: z.ZodTypeAny): string {
  const { inner } = peel(s)
  const d = def(inner)
  switch (d.typeName) {
    case 'ZodString': {
      const kinds = (d.checks ?? []).map((c) => c.kind)
      if (kinds.includes('uuid')) return 'uuid'
      if (kinds.includes('datetime')) return 'ISO datetime'
      if (kinds.includes('url')) return 'url'
      return 'string'
    }
    case 'ZodNumber':
      return (d.checks ?? []).some((c) => c.kind === 'int') ? 'integer' : 'number'
    case 'ZodBigInt':
      return 'integer'
    case 'ZodBoolean':
      return 'boolean'
    case 'ZodArray': {
      const min = d.minLength?.value
      return `${d.type ? typeOf(d.type) : 'any'}[]${min ? ` (${min}+)` : ''}`
    }
    case 'ZodEnum':
      return (d.values as string[]).map((v) => JSON.stringify(v)).join(' | ')
    case 'ZodLiteral':
      return JSON.stringify(d.value)
    case 'ZodUnion':
      return (d.options ?? []).map(typeOf).join(' | ')
    case 'ZodRecord':
      return `{[key]: ${d.valueType ? typeOf(d.valueType) : 'any'}}`
    case 'ZodObject':
      return describe(inner).summary
    default:
      return 'any'
  }
}

function describe(schema: z.ZodTypeAny): PayloadShape {
  const { inner } = peel(schema)
  const d = def(inner)
  if (d.typeName !== 'ZodObject' || !d.shape) return { kind: 'any', fields: [], summary: 'any JSON' }
  const fields = Object.entries(d.shape()).map(([name, field]) => {
    const p = peel(field)
    const out: PayloadField = { name, type: typeOf(field), required: !p.optional }
    if (p.default !== undefined) out.default = p.default
    return out
  })
  if (fields.length === 0) return { kind: 'empty', fields, summary: '{} (nothing to send)' }
  const parts = fields.map((f) => `${f.name}${f.required ? '' : '?'}: ${f.type}${f.default !== undefined ? ` = ${JSON.stringify(f.default)}` : ''}`)
  return { kind: 'object', fields, summary: `{${parts.join(', ')}}` }
}

/** The payload a job accepts; raw-bytes jobs take no JSON at all. */
export function payloadShape(schema: z.ZodTypeAny, format: 'json' | 'bytes' = 'json'): PayloadShape {
  if (format === 'bytes') return { kind: 'bytes', fields: [], summary: 'raw bytes (enqueued by the application, not as JSON)' }
  return describe(schema)
}
