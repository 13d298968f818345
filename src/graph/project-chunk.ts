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
function chunkTextSql(chunkId: string, scopes: readonly string[], lock: boolean): string {
  const id = chunkId.toLowerCase()
  if (!isUuid(id)) throw new UsageError(`chunk id "${chunkId}" is not a UUID`)
  return `SELECT text FROM chunk WHERE id = '${id}' AND scopes = '${scopeArrayLiteral(scopes)}'::uuid[]${lock ? ' FOR UPDATE' : ''}`
}

export async function projectChunk(pool: pg.Pool, settings: GraphSettings, ref: ChunkRef, extractor: Extractor, signal?: AbortSignal): Promise<ProjectionOutcome> {
  const user = User.system(ref.scopes, settings)
  // One round trip: the read's transaction opens, reads and commits in one batch.
  const [read] = await user.readOnce<{ text: string }>(pool, chunkTextSql(ref.chunkId, user.write, false))
  if (!read) return { outcome: 'gone' }
  const { text } = read
  const extraction = cleanExtraction(await extractor.extract(text, signal))
  // Locked as the transaction opens: two runs of one chunk write one after the other; a chunk
  // replaced meanwhile is gone.
  return user.transaction(
    pool,
    async (db, [current]) => {
      if (!current) return { outcome: 'gone' } as const
      if (current.text !== text) throw new Error(`chunk ${ref.chunkId} changed during projection; the retry reads it again`)
      return writeProjection(db, user.write, ref.chunkId, extraction, settings.decayHalfLifeDays)
    },
    chunkTextSql(ref.chunkId, user.write, true),
  )
}

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
  // Sorted by key, so projections of one set create shared entities in one order.
  const entities = [...extraction.entities].sort((a, b) => entityKey(a).localeCompare(entityKey(b)))
  const { claims } = extraction
  const { rows } = await db.query<{ entities: number; claims: number; mentions: number }>(
    'SELECT * FROM aizk_write_projection($1::uuid[], $2::uuid, $3::float8, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)',
    [
      scopes,
      chunkId,
      halfLifeDays,
      entities.map((e) => e.name),
      entities.map((e) => e.normalizedName),
      entities.map((e) => e.kind),
      entities.map((e) => e.mentions),
      claims.map((c) => c.subject),
      claims.map((c) => c.subjectKind),
      claims.map((c) => c.predicate),
      claims.map((c) => c.object),
      claims.map((c) => c.objectKind),
      claims.map((c) => c.objectIsEntity),
      claims.map((c) => (c.objectIsEntity ? null : `text:${c.object.toLowerCase()}`)),
    ],
  )
  return { outcome: 'projected', ...rows[0] }
}

const entityKey = (e: { kind: string; normalizedName: string }) => `${e.kind}\u0000${e.normalizedName}`
