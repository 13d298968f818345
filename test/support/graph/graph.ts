/** Writing memory and running the graph's jobs directly, as the app role (no owner, no bypass). */
import type pg from 'pg'
import type { Extraction } from '../../../src/graph/extract/extraction.js'
import { projectChunk } from '../../../src/graph/project/project-chunk.js'
import { writeDocument } from '../../../src/graph/project/write-memory.js'
import { ChunkProjectionJob } from '../../../src/jobs/inventory/index.js'
import type { JobContext } from '../../../src/jobs/queue-job.js'
import { User } from '../../../src/scope/user.js'
import { parseSettings, type Settings } from '../../../src/settings.js'
import { identity } from '../app-login.js'

export function graphSettings(env: Record<string, string> = {}): Settings {
  return parseSettings(env)
}

export function asSet<T>(pool: pg.Pool, scopes: string[], fn: (db: pg.PoolClient) => Promise<T>): Promise<T> {
  return User.system(scopes, identity).transaction(pool, fn)
}

/** A document written through the library API; returns its chunk ids in order. */
export async function addDocument(pool: pg.Pool, scopes: string[], title: string, body: string): Promise<string[]> {
  return asSet(pool, scopes, async (db) => {
    const doc = await writeDocument(db, scopes, { title, body }, graphSettings())
    const { rows } = await db.query<{ id: string }>('SELECT id::text FROM chunk WHERE document_id = $1 ORDER BY ordinal', [doc.documentId])
    return rows.map((r) => r.id)
  })
}

export function jobContext(pool: pg.Pool, entrypoint: string, settings: Settings = graphSettings()): JobContext {
  return { pool, jobId: '0', entrypoint, attempts: 0, headers: {}, signal: new AbortController().signal, settings }
}

export async function projectAs(pool: pg.Pool, chunkId: string, scopes: string[]): Promise<void> {
  const payload = ChunkProjectionJob.payload.parse({ chunkId, scopes })
  await new ChunkProjectionJob().handle(payload, jobContext(pool, ChunkProjectionJob.entrypoint))
}

/**
 * A chunk projected as the worker projects it (projectChunk, as the app role), with `extraction`
 * standing in for whatever the extractor would have found in its text.
 */
export async function projectExtraction(pool: pg.Pool, scopes: string[], chunkId: string, extraction: Extraction): Promise<void> {
  const out = await projectChunk(pool, { ...identity, decayHalfLifeDays: 90 }, { chunkId, scopes }, { name: 'fixed', extract: async () => extraction })
  if (out.outcome !== 'projected') throw new Error(`chunk ${chunkId} is not of the set ${scopes.join(',')}`)
}

/** Rows of a graph table visible to exactly this set, as the set sees them. */
export async function countVisible(pool: pg.Pool, scopes: string[], table: string, where = 'true'): Promise<number> {
  return asSet(pool, scopes, async (db) => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`)).rows[0].n)
}
