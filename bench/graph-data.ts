/**
 * Benchmark data from real prose: chunks of it, and its words for entity names. The corpus is
 * Debian's python3.11-doc (the graph tests' corpus) followed by perl-doc's manual pages, so that
 * it holds 10,000 distinct chunks at the product's chunk size (2,000 characters): python3.11-doc
 * alone holds 6,234. `scripts/fetch-corpus.sh --bench` unpacks both into the user's cache
 * when missing and names their folders.
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type pg from 'pg'
import { chunkMarkdown } from '../src/chunking/index.js'
import { insertDocument, insertDocumentChunks } from '../src/graph/project/sql/document-sql.js'
import { enqueueChunkProjections } from '../src/ingest/projection.js'
import { User } from '../src/scope/user.js'
import { parseSettings } from '../src/settings.js'
import { corpusDir, corpusFiles } from '../test/support/graph/corpus.js'

/** Generated reference lists (a table of contents, Unicode properties, the C API), not prose. */
const NOT_PROSE = new Set(['perltoc.pod', 'perluniprops.pod', 'perlapi.pod', 'perlintern.pod'])

/** perl-doc's pod folder, from the script that unpacks it when missing (its output's second line). */
function perlPodDir(): string {
  const script = fileURLToPath(new URL('../scripts/fetch-corpus.sh', import.meta.url))
  const printed = execFileSync('bash', [script, '--bench'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
  return printed.trim().split('\n')[1]
}

/** The Python documentation's text sources, as absolute paths, sorted. */
export function pythonDocFiles(): string[] {
  return corpusFiles().map((f) => path.join(corpusDir(), f))
}

/** The benchmark corpus, as absolute paths: python3.11-doc's sources, then perl-doc's prose pages. */
export function benchCorpusFiles(): string[] {
  const pods = perlPodDir()
  const pages = readdirSync(pods)
    .filter((n) => n.endsWith('.pod') && !NOT_PROSE.has(n))
    .sort()
  return [...pythonDocFiles(), ...pages.map((n) => path.join(pods, n))]
}

export function corpusChunks(files: string[], maxChars: number): string[] {
  return files.flatMap((f) => chunkMarkdown(readFileSync(f, 'utf8'), { maxChars, overlapChars: 200 }).map((c) => c.text))
}

/** Distinct lower-case words of four letters or more, in corpus order. */
export function corpusWords(files: string[]): string[] {
  const words = new Set<string>()
  for (const f of files)
    for (const w of readFileSync(f, 'utf8')
      .toLowerCase()
      .match(/\b[a-z]{4,}\b/g) ?? [])
      words.add(w)
  return [...words]
}

/** One document holding the chunks, and one projection job per chunk, as an application writes them. */
export async function insertChunks(pool: pg.Pool, scopes: string[], texts: string[]): Promise<void> {
  await User.system(scopes, parseSettings({})).transaction(pool, async (db) => {
    const documentId = await insertDocument(db, scopes, { title: 'benchmark corpus', body: '(benchmark corpus)' })
    for (let i = 0; i < texts.length; i += 1000) {
      const batch = texts.slice(i, i + 1000).map((text, k) => ({ ordinal: i + k, text, heading: null, charStart: 0, charEnd: text.length }))
      const ids = await insertDocumentChunks(db, scopes, documentId, batch)
      await enqueueChunkProjections(db, scopes, ids)
    }
  })
}
