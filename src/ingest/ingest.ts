/**
 * Ingest: store an original, write its artifact row and enqueue its conversion in ONE
 * transaction under the artifact's scopes, so both land or neither does. The same bytes into
 * the same scope set twice store once and name the same artifact. The conversion's dedupe key
 * is the content id: while the same bytes are converting for another scope set, this enqueue is
 * refused and the dispatch pass sends it once that conversion has finished.
 */
import type pg from 'pg'
import { type ContentSettings, planOriginal, storeOriginal } from '../content/store.js'
import { converterFor, mediaTypeFor, normalizeMediaType } from '../convert/media-type.js'
import { UsageError } from '../errors.js'
import { normalizeScopes } from '../scope/scope-set.js'
import { type IdentitySettings, User } from '../scope/user.js'
import { enqueueConversion } from './entrypoints.js'
import { insertArtifact } from './sql/artifact.js'

export interface IngestInput {
  bytes: Buffer
  scopes: Iterable<string>
  filename?: string | null
  /** Defaults to the type the file name says. */
  mediaType?: string | null
}

export interface IngestResult {
  artifactId: string
  contentId: string
  scopes: string[]
  mediaType: string
  byteSize: number
  /** False when these bytes were already an artifact of this scope set. */
  created: boolean
  /** The conversion job's id; null when none was enqueued (existing artifact, or its key is live). */
  conversionJobId: string | null
  conversionStatus: string
}

export async function ingestOriginal(pool: pg.Pool, settings: ContentSettings & IdentitySettings, input: IngestInput): Promise<IngestResult> {
  const scopes = normalizeScopes(input.scopes)
  if (scopes.length === 0) throw new UsageError('an original needs at least one scope', 'pass --scope UUID (repeatable)')
  const filename = input.filename ? input.filename.split(/[\\/]/).pop() || null : null
  const mediaType = input.mediaType ? declaredMediaType(input.mediaType) : mediaTypeFor(filename)
  checkTextHasNoNul(input.bytes, filename, mediaType)
  return User.system(scopes, settings).transaction(pool, async (db) => {
    const planned = planOriginal(settings, input.bytes)
    const artifact = await insertArtifact(db, { scopes, filename, mediaType, ...planned })
    // After the artifact: the content table shows the app role only bytes an artifact it can
    // see refers to, and that includes the row it is inserting.
    const stored = await storeOriginal(db, settings, input.bytes)
    let jobId: string | false = false
    if (artifact.inserted) {
      jobId = await enqueueConversion(db, { artifactId: artifact.id, scopes }, stored.contentId)
    }
    return {
      artifactId: artifact.id,
      contentId: stored.contentId,
      scopes,
      mediaType,
      byteSize: stored.byteSize,
      created: artifact.inserted,
      conversionJobId: jobId || null,
      conversionStatus: artifact.status,
    }
  })
}

/**
 * An original converted here as text (Markdown, plain text, HTML) becomes PostgreSQL text, which
 * cannot hold NUL: refused at the door rather than stored and then failing its conversion.
 */
function checkTextHasNoNul(bytes: Buffer, filename: string | null, mediaType: string): void {
  if (converterFor(mediaType, filename) === 'docling') return
  const at = bytes.indexOf(0)
  if (at < 0) return
  throw new UsageError(
    `${filename ?? 'the original'} holds a NUL byte (at byte ${at}), which text (${mediaType}) cannot: PostgreSQL text has no NUL`,
    "remove the NUL bytes (tr -d '\\000'), convert UTF-16 text to UTF-8 (iconv -f UTF-16 -t UTF-8), or give --media-type of what the file really is",
  )
}

function declaredMediaType(value: string): string {
  const normalized = normalizeMediaType(value)
  if (!normalized) {
    throw new UsageError(
      `media type "${value}" is not a media type`,
      'give type/subtype, such as text/markdown or application/pdf (optionally ; charset=utf-8)',
    )
  }
  return normalized
}
