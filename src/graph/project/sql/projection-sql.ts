/**
 * The projection's SQL: the chunk's text read under exactly its scope set, and the write of its
 * contribution (aizk_write_projection: entities, claims and evidence, withdrawn evidence,
 * mentions, dirty profiles, the chunk marked projected) as one literal statement, so that the
 * lock, the check that the chunk is unchanged, the write and COMMIT travel in one round trip.
 */
import { UsageError } from '../../../errors.js'
import { isUuid, scopeArrayLiteral } from '../../../scope/scope-set.js'
import type { CleanExtraction } from '../../extract/extraction.js'
import { arrayLiteral, textLiteral } from './array-literal.js'

/**
 * The chunk's text, only if the chunk's scopes are exactly this set (never a wider read). As a
 * literal statement, so that it rides in the round trip that opens the scoped transaction: the id
 * is checked as a UUID here and the set by scopeArrayLiteral.
 */
export function chunkTextSql(chunkId: string, scopes: readonly string[], lock: boolean, column = 'text'): string {
  return `SELECT ${column} FROM chunk WHERE id = '${chunkUuid(chunkId)}' AND scopes = '${scopeArrayLiteral(scopes)}'::uuid[]${lock ? ' FOR UPDATE' : ''}`
}

const KNOWN_NAMES = 200

/** The set's most recently seen entity names, for a model to reuse (docs/memory-graph.md, "The chat-model extractor"). */
export function knownNamesSql(scopes: readonly string[]): string {
  return `ARRAY(SELECT name FROM entity WHERE scopes = '${scopeArrayLiteral(scopes)}'::uuid[] AND merged_into IS NULL ORDER BY last_seen DESC LIMIT ${KNOWN_NAMES})`
}

function chunkUuid(chunkId: string): string {
  const id = chunkId.toLowerCase()
  if (!isUuid(id)) throw new UsageError(`chunk id "${chunkId}" is not a UUID`)
  return id
}

export type WriteCounts = { entities: number; claims: number; mentions: number }

/**
 * The call of aizk_write_projection as one statement with literal values (a batch takes no parameters),
 * made only when the chunk, locked, still holds `text`: no row when the chunk is gone (or not of
 * this set), `same` false when it changed, else `same` and the write's counts.
 */
export function lockedWriteSql(scopes: readonly string[], chunkId: string, text: string, extraction: CleanExtraction, halfLifeDays: number): string {
  if (!Number.isFinite(halfLifeDays)) throw new RangeError(`half-life ${halfLifeDays} is not a number`)
  const locked = chunkTextSql(chunkId, scopes, true, `text = ${textLiteral(text)} AS same`)
  const set = `'${scopeArrayLiteral(scopes)}'::uuid[]`
  const call = [set, `'${chunkUuid(chunkId)}'::uuid`, `${halfLifeDays}::float8`, ...projectionArgs(extraction).map((a) => arrayLiteral(a.values, a.type))]
  const annotation = annotationArgs(extraction)
  const annotate = annotation && [set, ...annotation.map((a) => arrayLiteral(a.values, a.type))]
  const ended = extraction.claims.filter((c) => c.validTo)
  const ends = ended.length > 0 && [
    set,
    ...claimKeyArgs(ended).map((a) => arrayLiteral(a.values, a.type)),
    arrayLiteral(
      ended.map((c) => c.validTo ?? null),
      'text',
    ),
  ]
  // The locked row's check is an uncorrelated subquery of the write's WHERE: the planner makes it
  // a one-time filter, run before the function, so the write happens only for an unchanged chunk.
  // The annotation runs once the write's row exists, and (a volatile function's statements each
  // take a fresh snapshot) sees the rows the write made; with nothing to annotate it is left out.
  return (
    `WITH c AS MATERIALIZED (${locked}) ` +
    `SELECT c.same, w.entities, w.claims, w.mentions FROM c ` +
    `LEFT JOIN (SELECT * FROM aizk_write_projection(${call.join(', ')}) WHERE (SELECT same FROM c)) w ON true` +
    (annotate ? ` LEFT JOIN LATERAL (SELECT aizk_annotate_projection(${annotate.join(', ')}) WHERE w.entities IS NOT NULL) a ON true` : '') +
    // When claims stopped being true (docs/memory-graph.md, "Time on every fact"), after the annotation.
    (ends ? ` LEFT JOIN LATERAL (SELECT aizk_annotate_claim_ends(${ends.join(', ')}) WHERE w.entities IS NOT NULL) t ON true` : '')
  )
}

/** aizk_write_projection's arrays after (scopes, chunk, half-life), in its parameter order. */
function projectionArgs(extraction: CleanExtraction): { values: (string | number | boolean | null)[]; type: 'text' | 'int' | 'boolean' }[] {
  // Sorted by key, so projections of one set create shared entities in one order.
  const entities = [...extraction.entities].sort((a, b) => entityKey(a).localeCompare(entityKey(b)))
  const { claims } = extraction
  return [
    { values: entities.map((e) => e.name), type: 'text' },
    { values: entities.map((e) => e.normalizedName), type: 'text' },
    { values: entities.map((e) => e.kind), type: 'text' },
    { values: entities.map((e) => e.mentions), type: 'int' },
    { values: entities.map((e) => e.description ?? null), type: 'text' },
    ...claimKeyArgs(claims),
  ]
}

/**
 * aizk_annotate_projection's arrays after the set: descriptions and dates, keyed as the write keys
 * them; undefined when the extraction has none.
 */
function annotationArgs(extraction: CleanExtraction): { values: (string | boolean | null)[]; type: 'text' | 'boolean' }[] | undefined {
  const entities = extraction.entities.filter((e) => e.description)
  const claims = extraction.claims.filter((c) => c.description || c.validFrom)
  if (entities.length === 0 && claims.length === 0) return undefined
  return [
    { values: entities.map((e) => e.normalizedName), type: 'text' },
    { values: entities.map((e) => e.kind), type: 'text' },
    { values: entities.map((e) => e.description ?? null), type: 'text' },
    ...claimKeyArgs(claims),
    { values: claims.map((c) => c.description ?? null), type: 'text' },
    { values: claims.map((c) => c.validFrom ?? null), type: 'text' },
  ]
}

type Claim = CleanExtraction['claims'][number]

/** The arrays that name a claim, in the order both database functions take them: subject, predicate, object. */
function claimKeyArgs(claims: readonly Claim[]): { values: (string | boolean | null)[]; type: 'text' | 'boolean' }[] {
  return [
    { values: claims.map((c) => c.subject), type: 'text' },
    { values: claims.map((c) => c.subjectKind), type: 'text' },
    { values: claims.map((c) => c.predicate), type: 'text' },
    { values: claims.map((c) => c.object), type: 'text' },
    { values: claims.map((c) => c.objectKind), type: 'text' },
    { values: claims.map((c) => c.objectIsEntity), type: 'boolean' },
    { values: claims.map((c) => (c.objectIsEntity ? null : `text:${c.object.toLowerCase()}`)), type: 'text' },
  ]
}

const entityKey = (e: { kind: string; normalizedName: string }) => `${e.kind}\u0000${e.normalizedName}`
