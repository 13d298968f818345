/**
 * ChunkProjectionJob's body. The chunk is read in one short transaction (one round trip) under
 * exactly its scope set, extracted with no transaction open (off the loop for the built-in
 * extractor, over HTTP for a model), and its contribution written in ONE transaction under the same set: entities,
 * claims and evidence, mentions, dirty profiles, the chunk marked projected. Re-running a chunk
 * replaces what it contributed: evidence it no longer gives is withdrawn, nothing doubles.
 */
import type pg from 'pg'
import type { Queryable } from '../db/queryable.js'
import { UsageError } from '../errors.js'
import { isUuid, scopeArrayLiteral } from '../scope/scope-set.js'
import { User } from '../scope/user.js'
import type { Settings } from '../settings.js'
import { type CleanExtraction, cleanExtraction, type Extractor } from './extraction.js'
import { arrayLiteral, textLiteral } from './sql/array-literal.js'

export interface ChunkRef {
  chunkId: string
  scopes: readonly string[]
}

export type ProjectionOutcome = { outcome: 'projected'; entities: number; claims: number; mentions: number } | { outcome: 'gone' }

type GraphSettings = Pick<Settings, 'systemUserId' | 'appRole' | 'decayHalfLifeDays'>

/**
 * The chunk's text, only if the chunk's scopes are exactly this set (never a wider read). As a
 * literal statement, so that it rides in the round trip that opens the scoped transaction: the id
 * is checked as a UUID here and the set by scopeArrayLiteral.
 */
function chunkTextSql(chunkId: string, scopes: readonly string[], lock: boolean, column = 'text'): string {
  return `SELECT ${column} FROM chunk WHERE id = '${chunkUuid(chunkId)}' AND scopes = '${scopeArrayLiteral(scopes)}'::uuid[]${lock ? ' FOR UPDATE' : ''}`
}

const KNOWN_NAMES = 200

/** The set's most recently seen entity names, for a model to reuse (docs/memory-graph.md, "The chat-model extractor"). */
function knownNamesSql(scopes: readonly string[]): string {
  return `ARRAY(SELECT name FROM entity WHERE scopes = '${scopeArrayLiteral(scopes)}'::uuid[] AND merged_into IS NULL ORDER BY last_seen DESC LIMIT ${KNOWN_NAMES})`
}

function chunkUuid(chunkId: string): string {
  const id = chunkId.toLowerCase()
  if (!isUuid(id)) throw new UsageError(`chunk id "${chunkId}" is not a UUID`)
  return id
}

export async function projectChunk(pool: pg.Pool, settings: GraphSettings, ref: ChunkRef, extractor: Extractor, signal?: AbortSignal): Promise<ProjectionOutcome> {
  const user = User.system(ref.scopes, settings)
  // One round trip: the read's transaction opens, reads and commits in one batch.
  const wantsNames = extractor.name.startsWith('llm:')
  const [read] = await user.readOnce<{ text: string; known?: string[] }>(pool, chunkTextSql(ref.chunkId, user.write, false, wantsNames ? `text, ${knownNamesSql(user.write)} AS known` : 'text'))
  if (!read) return { outcome: 'gone' }
  const { text } = read
  const extraction = cleanExtraction(await extractor.extract(text, signal, read.known ?? []))
  // The write is one batch too: the chunk locked (two runs of one chunk write one after the
  // other), its text compared with the one extracted, the write, COMMIT. The rows it creates are
  // locked only while the server runs the batch, never across a round trip to this process, so a
  // neighbouring chunk waiting on one of them waits for the server alone.
  const [row] = await user.readOnce<{ same: boolean } & WriteCounts>(pool, lockedWriteSql(user.write, ref.chunkId, text, extraction, settings.decayHalfLifeDays))
  if (!row) return { outcome: 'gone' }
  if (!row.same) throw new Error(`chunk ${ref.chunkId} changed during projection; the retry reads it again`)
  return { outcome: 'projected', entities: row.entities, claims: row.claims, mentions: row.mentions }
}

type WriteCounts = { entities: number; claims: number; mentions: number }

/**
 * The chunk's contribution, written by one database call (aizk_write_projection, migration 0012):
 * entities, claims and evidence, withdrawn evidence, mentions, dirty profiles, the chunk marked
 * projected. The caller's transaction holds the chunk's lock.
 */
export async function writeProjection(
  db: Queryable,
  scopes: readonly string[],
  chunkId: string,
  extraction: CleanExtraction,
  halfLifeDays: number,
): Promise<ProjectionOutcome & { outcome: 'projected' }> {
  const args = projectionArgs(extraction)
  const { rows } = await db.query<WriteCounts>(
    'SELECT * FROM aizk_write_projection($1::uuid[], $2::uuid, $3::float8, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)',
    [scopes, chunkId, halfLifeDays, ...args.map((a) => a.values)],
  )
  const details = annotationArgs(extraction)
  await db.query(`SELECT aizk_annotate_projection($1::uuid[], ${details.map((_, n) => `$${n + 2}`).join(', ')})`, [scopes, ...details.map((a) => a.values)])
  return { outcome: 'projected', ...rows[0] }
}

/**
 * writeProjection's call as one statement with literal values (a batch takes no parameters),
 * made only when the chunk, locked, still holds `text`: no row when the chunk is gone (or not of
 * this set), `same` false when it changed, else `same` and the write's counts.
 */
function lockedWriteSql(scopes: readonly string[], chunkId: string, text: string, extraction: CleanExtraction, halfLifeDays: number): string {
  if (!Number.isFinite(halfLifeDays)) throw new RangeError(`half-life ${halfLifeDays} is not a number`)
  const locked = chunkTextSql(chunkId, scopes, true, `text = ${textLiteral(text)} AS same`)
  const set = `'${scopeArrayLiteral(scopes)}'::uuid[]`
  const call = [set, `'${chunkUuid(chunkId)}'::uuid`, `${halfLifeDays}::float8`, ...projectionArgs(extraction).map((a) => arrayLiteral(a.values, a.type))]
  const annotate = [set, ...annotationArgs(extraction).map((a) => arrayLiteral(a.values, a.type))]
  // The locked row's check is an uncorrelated subquery of the write's WHERE: the planner makes it
  // a one-time filter, run before the function, so the write happens only for an unchanged chunk.
  // The annotation runs once the write's row exists, and (a volatile function's statements each
  // take a fresh snapshot) sees the rows the write made.
  return (
    `WITH c AS MATERIALIZED (${locked}) ` +
    `SELECT c.same, w.entities, w.claims, w.mentions FROM c ` +
    `LEFT JOIN (SELECT * FROM aizk_write_projection(${call.join(', ')}) WHERE (SELECT same FROM c)) w ON true ` +
    `LEFT JOIN LATERAL (SELECT aizk_annotate_projection(${annotate.join(', ')}) WHERE w.entities IS NOT NULL) a ON true`
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
    { values: claims.map((c) => c.subject), type: 'text' },
    { values: claims.map((c) => c.subjectKind), type: 'text' },
    { values: claims.map((c) => c.predicate), type: 'text' },
    { values: claims.map((c) => c.object), type: 'text' },
    { values: claims.map((c) => c.objectKind), type: 'text' },
    { values: claims.map((c) => c.objectIsEntity), type: 'boolean' },
    { values: claims.map((c) => (c.objectIsEntity ? null : `text:${c.object.toLowerCase()}`)), type: 'text' },
  ]
}

/** aizk_annotate_projection's arrays after the set (migration 0024): descriptions and dates, keyed as the write keys them. */
function annotationArgs(extraction: CleanExtraction): { values: (string | boolean | null)[]; type: 'text' | 'boolean' }[] {
  const entities = extraction.entities.filter((e) => e.description)
  const claims = extraction.claims.filter((c) => c.description || c.validFrom)
  return [
    { values: entities.map((e) => e.normalizedName), type: 'text' },
    { values: entities.map((e) => e.kind), type: 'text' },
    { values: entities.map((e) => e.description ?? null), type: 'text' },
    { values: claims.map((c) => c.subject), type: 'text' },
    { values: claims.map((c) => c.subjectKind), type: 'text' },
    { values: claims.map((c) => c.predicate), type: 'text' },
    { values: claims.map((c) => c.object), type: 'text' },
    { values: claims.map((c) => c.objectKind), type: 'text' },
    { values: claims.map((c) => c.objectIsEntity), type: 'boolean' },
    { values: claims.map((c) => (c.objectIsEntity ? null : `text:${c.object.toLowerCase()}`)), type: 'text' },
    { values: claims.map((c) => c.description ?? null), type: 'text' },
    { values: claims.map((c) => c.validFrom ?? null), type: 'text' },
  ]
}

const entityKey = (e: { kind: string; normalizedName: string }) => `${e.kind}\u0000${e.normalizedName}`
