/**
 * What an extractor returns, and the one interface both extractors (built in, and the
 * OpenAI-compatible chat endpoint) implement. The zod schema is the LLM answer's contract too:
 * anything that fails it is never written.
 */
import { z } from 'zod'
import { displayName, normalizeKind, normalizeName } from './normalize.js'

export const extractionSchema = z.object({
  entities: z
    .array(
      z.object({
        name: z.string().min(1).max(300),
        kind: z.string().min(1).max(60),
        /** What the text says it is, in its own words. */
        description: z.string().max(2000).optional(),
      }),
    )
    .max(500),
  claims: z
    .array(
      z.object({
        subject: z.string().min(1).max(300),
        predicate: z.string().min(1).max(120),
        object: z.string().min(1).max(1000),
        /** True when the object is a thing the memory knows (an entity), false for literal text. */
        objectIsEntity: z.boolean(),
        /** When it became true, as the text dates it ("1993", "May 2000"). */
        when: z.string().max(60).optional(),
        /** When it stopped being true, as the text dates it ("March 1998"). */
        until: z.string().max(60).optional(),
        /** The relation in a sentence of the text's own words. */
        description: z.string().max(2000).optional(),
        /** How strongly the text states it, 1 (in passing) to 10 (its point). */
        strength: z.number().min(0).max(10).optional(),
      }),
    )
    .max(500),
})

export type Extraction = z.infer<typeof extractionSchema>

export interface Extractor {
  /** 'builtin' or 'llm:<model>': recorded nowhere, shown in logs and benchmarks. */
  readonly name: string
  /** `knownNames`: the scope set's entity names, so a model can reuse them rather than invent variants. */
  extract(text: string, signal?: AbortSignal, knownNames?: readonly string[]): Promise<Extraction>
}

export interface CleanEntity {
  name: string
  normalizedName: string
  kind: string
  mentions: number
  /** The first description the extraction gave it. */
  description?: string
}

export interface CleanClaim {
  subject: string
  subjectKind: string
  predicate: string
  object: string
  objectIsEntity: boolean
  objectKind: string
  description?: string
  /** When it became true, as the text dates it. */
  validFrom?: string
  /** When it stopped being true, as the text dates it. */
  validTo?: string
}

export interface CleanExtraction {
  entities: CleanEntity[]
  claims: CleanClaim[]
}

const MAX_LITERAL = 300
const MAX_DESCRIPTION = 2000

/**
 * Fold an extraction onto the graph's shapes: normalized names and kinds, one entity per
 * (kind, normalized name) with its mention count, every claim's subject (and entity object)
 * present among the entities, empty or duplicate claims dropped.
 */
export function cleanExtraction(raw: Extraction): CleanExtraction {
  const entities = new Map<string, CleanEntity>()
  const kindOf = new Map<string, string>()
  const addEntity = (name: string, kind: string, count = 1, description?: string): CleanEntity | null => {
    const normalizedName = normalizeName(name)
    if (normalizedName.length < 2) return null
    const k = kindOf.get(normalizedName) ?? normalizeKind(kind)
    kindOf.set(normalizedName, k)
    const key = `${k}\u0000${normalizedName}`
    const existing = entities.get(key)
    const told = description?.trim().slice(0, MAX_DESCRIPTION) || undefined
    if (existing) {
      existing.mentions += count
      existing.description ??= told
      return existing
    }
    const entity: CleanEntity = {
      name: displayName(name).slice(0, 300),
      normalizedName,
      kind: k,
      mentions: Math.max(count, 1),
      ...(told ? { description: told } : {}),
    }
    entities.set(key, entity)
    return entity
  }
  for (const e of raw.entities) addEntity(e.name, e.kind, 1, e.description)
  const claims = new Map<string, CleanClaim>()
  for (const c of raw.claims) {
    const subject = addEntity(c.subject, kindOf.get(normalizeName(c.subject)) ?? 'concept', 0)
    const predicate = c.predicate.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim()
    if (!subject || !predicate) continue
    let object: CleanEntity | null = null
    if (c.objectIsEntity) object = addEntity(c.object, kindOf.get(normalizeName(c.object)) ?? 'concept', 0)
    const literal = displayName(c.object).slice(0, MAX_LITERAL)
    if (!object && !literal) continue
    const claim: CleanClaim = {
      subject: subject.normalizedName,
      subjectKind: subject.kind,
      predicate,
      object: object ? object.normalizedName : literal,
      objectIsEntity: object !== null,
      objectKind: object?.kind ?? '',
      ...(c.description?.trim() ? { description: c.description.trim().slice(0, MAX_DESCRIPTION) } : {}),
      ...(c.when?.trim() ? { validFrom: c.when.trim().slice(0, 60) } : {}),
      ...(c.until?.trim() ? { validTo: c.until.trim().slice(0, 60) } : {}),
    }
    const key = [claim.subject, claim.subjectKind, predicate, claim.objectIsEntity, claim.object, claim.objectKind].join('\u0000')
    const seen = claims.get(key)
    if (seen) {
      seen.description ??= claim.description
      seen.validFrom ??= claim.validFrom
      seen.validTo ??= claim.validTo
      continue
    }
    claims.set(key, claim)
  }
  return { entities: [...entities.values()], claims: [...claims.values()] }
}
