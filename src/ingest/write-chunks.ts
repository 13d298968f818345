/**
 * From Markdown to stored chunks: chunk (pure), embed (outside any transaction: it is network
 * time), then in the caller's transaction replace the artifact's chunks and enqueue one
 * projection per chunk. A failed embedding throws before anything is written.
 */

import { type Chunk, chunkMarkdown } from '../chunking/index.js'
import type { Queryable } from '../db/queryable.js'
import { type EmbeddingSettings, embedChunkTexts } from '../embedding/index.js'
import { enqueueChunkProjections } from './projection.js'
import { replaceChunks } from './sql/chunk.js'

export interface ChunkSettings extends EmbeddingSettings {
  chunkMaxChars: number
  chunkOverlapChars: number
}

export interface PreparedChunks {
  chunks: Chunk[]
  vectors: (number[] | null)[]
}

export async function prepareChunks(markdown: string, settings: ChunkSettings, signal?: AbortSignal): Promise<PreparedChunks> {
  const chunks = chunkMarkdown(markdown, { maxChars: settings.chunkMaxChars, overlapChars: settings.chunkOverlapChars })
  const vectors = await embedChunkTexts(
    chunks.map((c) => c.text),
    settings,
    signal,
  )
  return { chunks, vectors }
}

export async function writeChunks(
  db: Queryable,
  artifact: { id: string; scopes: readonly string[] },
  prepared: PreparedChunks,
): Promise<{ chunks: number; projections: number }> {
  const stored = await replaceChunks(db, artifact.id, artifact.scopes, prepared.chunks, prepared.vectors)
  const projections = await enqueueChunkProjections(
    db,
    artifact.scopes,
    stored.map((c) => c.id),
  )
  return { chunks: stored.length, projections }
}
