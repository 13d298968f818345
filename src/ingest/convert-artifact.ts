/**
 * The bodies of the conversion and reindex jobs. Reads happen in one short transaction under the
 * artifact's scopes, conversion and embedding outside any transaction, and success lands in ONE
 * transaction under the same scopes: Markdown on the artifact, its chunks, one projection job
 * per chunk. A failure no retry can mend marks the artifact failed (nothing else written) and
 * throws a PermanentJobError so the job is held at once.
 */
import type pg from 'pg'
import { readOriginal } from '../content/store.js'
import { convertToMarkdown } from '../convert/convert.js'
import { PermanentJobError } from '../convert/errors.js'
import { User } from '../scope/user.js'
import type { Settings } from '../settings.js'
import { type ArtifactRow, loadArtifact, markConversionFailed, storeMarkdown } from './sql/artifact.js'
import { prepareChunks, writeChunks } from './write-chunks.js'

export interface ArtifactRef {
  artifactId: string
  scopes: readonly string[]
}

export type ConversionOutcome = { outcome: 'converted' | 'reindexed'; chunks: number; projections: number } | { outcome: 'gone' | 'already-converted' }

export async function convertArtifact(pool: pg.Pool, settings: Settings, ref: ArtifactRef, signal?: AbortSignal): Promise<ConversionOutcome> {
  const user = User.system(ref.scopes, settings)
  const loaded = await user.transaction(pool, async (db) => {
    const artifact = await loadArtifact(db, ref.artifactId)
    if (!artifact || artifact.conversionStatus === 'converted') return { artifact, bytes: null }
    return { artifact, bytes: await readOriginal(db, settings, artifact) }
  })
  const { artifact, bytes } = loaded
  if (!artifact) return { outcome: 'gone' }
  if (artifact.conversionStatus === 'converted') return { outcome: 'already-converted' }
  let markdown: string
  try {
    if (!bytes)
      throw new PermanentJobError(`the original of artifact ${artifact.id} (content ${artifact.contentId}) is missing from the ${artifact.storage} store`)
    markdown = await convertToMarkdown({ bytes, filename: artifact.filename, mediaType: artifact.mediaType }, settings, signal)
    // No retry removes a NUL, and PostgreSQL text cannot store one (ingest refuses such text; this is an older artifact, or a converter's output).
    if (markdown.includes('\0'))
      throw new PermanentJobError(
        `the Markdown of artifact ${artifact.id} holds a NUL character, which PostgreSQL text cannot store`,
        'remove the NUL bytes from the original and ingest it again',
      )
  } catch (err) {
    if (err instanceof PermanentJobError) await user.transaction(pool, (db) => markConversionFailed(db, artifact.id, err.message))
    throw err
  }
  const prepared = await prepareChunks(markdown, settings, signal)
  const written = await user.transaction(pool, async (db) => {
    await storeMarkdown(db, artifact.id, markdown)
    return writeChunks(db, artifact, prepared)
  })
  return { outcome: 'converted', ...written }
}

/** Replays chunking and embedding from the stored Markdown; never converts again. */
export async function reindexArtifact(pool: pg.Pool, settings: Settings, ref: ArtifactRef, signal?: AbortSignal): Promise<ConversionOutcome> {
  const user = User.system(ref.scopes, settings)
  const artifact: ArtifactRow | null = await user.transaction(pool, (db) => loadArtifact(db, ref.artifactId))
  if (!artifact) return { outcome: 'gone' }
  if (artifact.conversionStatus !== 'converted' || artifact.markdown === null) {
    throw new PermanentJobError(`artifact ${artifact.id} has no stored Markdown to reindex (conversion ${artifact.conversionStatus})`)
  }
  const markdown = artifact.markdown
  const prepared = await prepareChunks(markdown, settings, signal)
  const written = await user.transaction(pool, async (db) => {
    // The Markdown may have been replaced meanwhile: chunk what is stored now, or nothing.
    const current = await loadArtifact(db, artifact.id)
    if (!current || current.markdown !== markdown) throw new Error(`artifact ${artifact.id} changed during reindex; the retry will use the new Markdown`)
    return writeChunks(db, artifact, prepared)
  })
  return { outcome: 'reindexed', ...written }
}
