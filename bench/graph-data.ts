/** Benchmark data from the real corpus: chunks of its prose, and its words for entity names. */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type pg from 'pg'
import { chunkMarkdown } from '../src/chunking/index.js'
import { insertDocument, insertDocumentChunks } from '../src/graph/sql/document-sql.js'
import { enqueueChunkProjections } from '../src/ingest/projection.js'
import { User } from '../src/scope/user.js'
import { parseSettings } from '../src/settings.js'
import { CORPUS_DIR } from '../test/graph/helpers/corpus.js'

export function corpusChunks(files: string[], maxChars: number): string[] {
  return files.flatMap((f) => chunkMarkdown(readFileSync(path.join(CORPUS_DIR, f), 'utf8'), { maxChars, overlapChars: 200 }).map((c) => c.text))
}

/** Distinct lower-case words of four letters or more, in corpus order. */
export function corpusWords(files: string[]): string[] {
  const words = new Set<string>()
  for (const f of files) for (const w of readFileSync(path.join(CORPUS_DIR, f), 'utf8').toLowerCase().match(/\b[a-z]{4,}\b/g) ?? []) words.add(w)
  return [...words]
}

/** One document holding the chunks, and one projection job per chunk, as an application writes them. */
export async function insertChunks(pool: pg.Pool, scopes: string[], texts: string[]): Promise<void> {
  await User.system(scopes, parseSettings({})).transaction(pool, async (db) => {
    const documentId = await insertDocument(db, scopes, { title: 'python3.11-doc', body: '(benchmark corpus)' })
    for (let i = 0; i < texts.length; i += 1000) {
      const batch = texts.slice(i, i + 1000).map((text, k) => ({ ordinal: i + k, text, heading: null, charStart: 0, charEnd: text.length }))
      const ids = await insertDocumentChunks(db, scopes, documentId, batch)
      await enqueueChunkProjections(db, scopes, ids)
    }
  })
}
