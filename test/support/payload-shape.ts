/**
 * The payload schema the enqueue door stores per entrypoint (aizk_app_entrypoint.payload_schema,
 * a JSON Schema subset: src/db/definitions/functions/aizk_payload_shape_refusal.sql), made from a
 * job class's zod schema. Only what the door can check faithfully is translated; anything else
 * (a refinement, a union, a number range) throws, so a schema the door cannot mirror is noticed.
 */
import { z } from 'zod'

export type Shape = { [key: string]: unknown }

export function payloadShape(schema: z.ZodTypeAny): Shape {
  return shapeOf(schema).shape
}

function shapeOf(schema: z.ZodTypeAny): { shape: Shape; optional: boolean } {
  const def = schema._def as { typeName: string } & Record<string, unknown>
  switch (def.typeName) {
    case z.ZodFirstPartyTypeKind.ZodOptional:
    case z.ZodFirstPartyTypeKind.ZodDefault:
      return { shape: shapeOf(def.innerType as z.ZodTypeAny).shape, optional: true }
    case z.ZodFirstPartyTypeKind.ZodEffects: {
      const effect = def.effect as { type: string }
      // A transform cannot reject a value its input schema accepted; a refinement can.
      if (effect.type !== 'transform') throw new Error(`payloadShape: a zod ${effect.type} cannot be checked by the door`)
      return shapeOf(def.schema as z.ZodTypeAny)
    }
    case z.ZodFirstPartyTypeKind.ZodObject: {
      const entries = Object.entries((schema as z.AnyZodObject).shape as Record<string, z.ZodTypeAny>).map(([k, v]) => [k, shapeOf(v)] as const)
      return {
        shape: {
          type: 'object',
          required: entries.filter(([, s]) => !s.optional).map(([k]) => k),
          properties: Object.fromEntries(entries.map(([k, s]) => [k, s.shape])),
        },
        optional: false,
      }
    }
    case z.ZodFirstPartyTypeKind.ZodArray: {
      const shape: Shape = { type: 'array' }
      const min = def.minLength as { value: number } | null
      const max = def.maxLength as { value: number } | null
      if (min) shape.minItems = min.value
      if (max) shape.maxItems = max.value
      shape.items = shapeOf(def.type as z.ZodTypeAny).shape
      return { shape, optional: false }
    }
    case z.ZodFirstPartyTypeKind.ZodString: {
      const shape: Shape = { type: 'string' }
      for (const check of def.checks as { kind: string; value?: number; offset?: boolean; local?: boolean; precision?: number | null }[]) {
        if (check.kind === 'min') shape.minLength = check.value
        else if (check.kind === 'max') shape.maxLength = check.value
        else if (check.kind === 'uuid') shape.format = 'uuid'
        else if (check.kind === 'datetime' && check.offset && !check.local && check.precision == null) shape.format = 'date-time'
        else throw new Error(`payloadShape: the string check ${check.kind} cannot be checked by the door`)
      }
      return { shape, optional: false }
    }
    case z.ZodFirstPartyTypeKind.ZodNumber: {
      const shape: Shape = { type: 'number' }
      for (const check of def.checks as { kind: string }[]) {
        if (check.kind === 'int') shape.type = 'integer'
        else if (check.kind !== 'finite') throw new Error(`payloadShape: the number check ${check.kind} cannot be checked by the door`)
      }
      return { shape, optional: false }
    }
    case z.ZodFirstPartyTypeKind.ZodBoolean:
      return { shape: { type: 'boolean' }, optional: false }
    default:
      throw new Error(`payloadShape: ${def.typeName} cannot be checked by the door`)
  }
}
