/**
 * ChunkProjectionJob's body. The chunk is read in one short transaction under exactly its scope
 * set, extracted with no transaction open (off the loop for the built-in extractor, over HTTP
 * for a model), and its contribution written in ONE transaction under the same set: entities,
 * claims and evidence, mentions, dirty profiles, the chunk marked projected. Re-running a chunk
 * replaces what it contributed: evidence it no longer gives is withdrawn, nothing doubles.
 */
import type pg from 'pg'
import type { Queryable } from '../db/queryable.js'
import { User } from '../scope/user.js'
import type { Settings } from '../settings.js'
import { type CleanExtraction, cleanExtraction, type Extractor } from './extraction.js'
import { type ClaimRow, objectKey, observeClaims, retractEvidence, supersedeOpposites } from './sql/claim-sql.js'
import { entityKey, upsertEntities } from './sql/entity-sql.js'
import { replaceMentions } from './sql/mention-sql.js'
import { markProfilesDirty } from './sql/profile-sql.js'

export interface ChunkRef {
  chunkId: string
  scopes: readonly string[]
}

export type ProjectionOutcome = { outcome: 'projected'; entities: number; claims: number; mentions: number } | { outcome: 'gone' }

type GraphSettings = Pick<Settings, 'systemUserId' | 'appRole' | 'decayHalfLifeDays'>

/** The chunk's text, only if the chunk's scopes are exactly this set (never a wider read). */
async function chunkText(db: Queryable, chunkId: string, scopes: readonly string[], lock: boolean): Promise<string | null> {
  const { rows } = await db.query<{ text: string }>(
    `SELECT text FROM chunk WHERE id = $1 AND scopes = $2::uuid[]${lock ? ' FOR UPDATE' : ''}`,
    [chunkId, scopes],
  )
  return rows[0]?.text ?? null
}

export async function projectChunk(pool: pg.Pool, settings: GraphSettings, ref: ChunkRef, extractor: Extractor, signal?: AbortSignal): Promise<ProjectionOutcome> {
  const user = User.system(ref.scopes, settings)
  const text = await user.transaction(pool, (db) => chunkText(db, ref.chunkId, user.write, false))
  if (text === null) return { outcome: 'gone' }
  const extraction = cleanExtraction(await extractor.extract(text, signal))
  return user.transaction(pool, async (db) => {
    // Locked: two runs of one chunk write one after the other; a chunk replaced meanwhile is gone.
    const current = await chunkText(db, ref.chunkId, user.write, true)
    if (current === null) return { outcome: 'gone' } as const
    if (current !== text) throw new Error(`chunk ${ref.chunkId} changed during projection; the retry reads it again`)
    return writeProjection(db, user.write, ref.chunkId, extraction, settings.decayHalfLifeDays)
  })
}

export async function writeProjection(
  db: Queryable,
  scopes: readonly string[],
  chunkId: string,
  extraction: CleanExtraction,
  halfLifeDays: number,
): Promise<ProjectionOutcome & { outcome: 'projected' }> {
  const ids = await upsertEntities(db, scopes, extraction.entities)
  const counts = new Map<string, number>()
  for (const e of extraction.entities) {
    const id = ids.get(entityKey(e.kind, e.normalizedName))
    if (id) counts.set(id, (counts.get(id) ?? 0) + e.mentions)
  }
  const claims = new Map<string, ClaimRow>()
  for (const c of extraction.claims) {
    const subjectId = ids.get(entityKey(c.subjectKind, c.subject))
    const objectId = c.objectIsEntity ? ids.get(entityKey(c.objectKind, c.object)) : undefined
    if (!subjectId || (c.objectIsEntity && !objectId)) continue
    const row: ClaimRow = { subjectId, predicate: c.predicate, objectId: objectId ?? null, objectText: objectId ? null : c.object }
    claims.set(`${subjectId} ${row.predicate} ${objectKey(row)}`, row)
  }
  const observed = await observeClaims(db, scopes, chunkId, [...claims.values()], halfLifeDays)
  await supersedeOpposites(db, scopes, observed.fresh)
  const retracted = await retractEvidence(db, scopes, chunkId, observed.all)
  const mentions = await replaceMentions(db, scopes, chunkId, counts)
  await markProfilesDirty(db, scopes, [...counts.keys(), ...retracted])
  await db.query(`UPDATE chunk SET projection_status = 'projected' WHERE id = $1`, [chunkId])
  return { outcome: 'projected', entities: counts.size, claims: observed.all.length, mentions }
}
