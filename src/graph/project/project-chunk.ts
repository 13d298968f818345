/**
 * ChunkProjectionJob's body. The chunk is read in one short transaction (one round trip) under
 * exactly its scope set, extracted with no transaction open (off the loop for the built-in
 * extractor, over HTTP for a model), and its contribution written in ONE transaction under the same set: entities,
 * claims and evidence, mentions, dirty profiles, the chunk marked projected. Re-running a chunk
 * replaces what it contributed: evidence it no longer gives is withdrawn, nothing doubles.
 */
import type pg from 'pg'
import { User } from '../../scope/user.js'
import type { Settings } from '../../settings.js'
import { cleanExtraction, type Extractor } from '../extract/extraction.js'
import { chunkTextSql, knownNamesSql, lockedWriteSql, type WriteCounts } from './sql/projection-sql.js'

export interface ChunkRef {
  chunkId: string
  scopes: readonly string[]
}

export type ProjectionOutcome = { outcome: 'projected'; entities: number; claims: number; mentions: number } | { outcome: 'gone' }

type GraphSettings = Pick<Settings, 'systemUserId' | 'appRole' | 'decayHalfLifeDays'>

export async function projectChunk(
  pool: pg.Pool,
  settings: GraphSettings,
  ref: ChunkRef,
  extractor: Extractor,
  signal?: AbortSignal,
): Promise<ProjectionOutcome> {
  const user = User.system(ref.scopes, settings)
  // One round trip: the read's transaction opens, reads and commits in one batch.
  const wantsNames = extractor.name.startsWith('llm:')
  const [read] = await user.readOnce<{ text: string; known?: string[] }>(
    pool,
    chunkTextSql(ref.chunkId, user.write, false, wantsNames ? `text, ${knownNamesSql(user.write)} AS known` : 'text'),
  )
  if (!read) return { outcome: 'gone' }
  const { text } = read
  const extraction = cleanExtraction(await extractor.extract(text, signal, read.known ?? []))
  // The write is one batch too: the chunk locked (two runs of one chunk write one after the
  // other), its text compared with the one extracted, the write, COMMIT. The rows it creates are
  // locked only while the server runs the batch, never across a round trip to this process, so a
  // neighbouring chunk waiting on one of them waits for the server alone.
  const [row] = await user.readOnce<{ same: boolean } & WriteCounts>(
    pool,
    lockedWriteSql(user.write, ref.chunkId, text, extraction, settings.decayHalfLifeDays),
  )
  if (!row) return { outcome: 'gone' }
  if (!row.same) throw new Error(`chunk ${ref.chunkId} changed during projection; the retry reads it again`)
  return { outcome: 'projected', entities: row.entities, claims: row.claims, mentions: row.mentions }
}
