/**
 * The labeled passages' shape, checked (docs/memory-graph.md, "The evaluation"): the old set
 * (test/fixtures/graph-eval/passages.json) and one file per package
 * (test/fixtures/graph-eval/packages/*.json). Unknown fields are refused, so a misspelt label
 * ("negate", "modalty") fails loudly instead of being ignored; `note` is free text anywhere.
 */
import { z } from 'zod'

export const GENRES = ['user-manual', 'faq', 'release-notes', 'history', 'policy', 'tutorial', 'man-page', 'changelog', 'developer-reference'] as const
export const KINDS = ['person', 'organisation', 'place', 'concept', 'event', 'product', 'optional'] as const
export const MODALITIES = ['can', 'could', 'must', 'should', 'may', 'might', 'will', 'would', 'shall'] as const

const text = z.string().trim().min(1)

export const entitySchema = z
  .object({ name: text, kind: z.enum(KINDS), aliases: z.array(text), refs: z.array(text).optional(), note: z.string().optional() })
  .strict()

export const claimSchema = z
  .object({
    subject: text,
    predicates: z.array(text).min(1),
    object: text,
    objectIsEntity: z.boolean(),
    negated: z.boolean().optional(),
    date: text.optional(),
    until: text.optional(),
    modality: z.enum(MODALITIES).optional(),
    past: z.literal(true).optional(),
    note: z.string().optional(),
  })
  .strict()

export const passageSchema = z
  .object({
    id: text,
    split: z.enum(['tune', 'held-out']),
    // The old set predates the genre list ("overview", "release-policy"); package files use GENRES.
    genre: text,
    topics: z.array(text).min(1),
    source: z.object({ package: text, version: text, file: text, lines: text, converted: z.string().optional() }).strict(),
    text: text,
    entities: z.array(entitySchema),
    claims: z.array(claimSchema),
    seeded: z.object({ from: text, to: text }).strict().optional(),
    note: z.string().optional(),
  })
  .strict()

export const functionalSchema = z
  .object({ subject: text, predicate: text, kind: z.enum(['contradiction', 'supersession']), split: z.enum(['tune', 'held-out']), note: z.string().optional() })
  .strict()

export const mergeLabelSchema = z.object({ names: z.tuple([text, text]), same: z.boolean(), note: z.string().optional() }).strict()

export const oldSetSchema = z.object({ functional: z.array(functionalSchema).optional(), passages: z.array(passageSchema) }).strict()

export const packageFileSchema = z
  .object({
    package: text,
    version: text,
    genre: z.enum(GENRES),
    generator: text,
    checked: z.string().optional(),
    note: z.string().optional(),
    passages: z.array(passageSchema.extend({ genre: z.enum(GENRES) })).min(1),
    functional: z.array(functionalSchema).optional(),
    merges: z.array(mergeLabelSchema).optional(),
  })
  .strict()

export type LabeledEntity = z.infer<typeof entitySchema>
export type LabeledClaim = z.infer<typeof claimSchema>
export type Passage = z.infer<typeof passageSchema>
export type FunctionalLabel = z.infer<typeof functionalSchema>
export type MergeLabel = z.infer<typeof mergeLabelSchema>
export type PackageFile = z.infer<typeof packageFileSchema>
