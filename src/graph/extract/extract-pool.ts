/**
 * The built-in extractor on worker threads (piscina). Extraction is CPU work; on the worker's
 * own loop one 2 KB chunk would stall picks and heartbeats for tens of milliseconds. One pool per
 * process, created on first use with `graphExtractThreads` threads, closed by the worker on
 * shutdown (closeExtractionPool).
 */
import os from 'node:os'
import { Piscina } from 'piscina'
import { threadModule } from '../cpu-thread.js'
import type { Extraction, Extractor } from './extraction.js'

let pool: Piscina | undefined

export function defaultExtractThreads(): number {
  return Math.max(1, Math.min(4, os.availableParallelism()))
}

/** Extraction threads run a little nicer than the loop, so under CPU contention picks and heartbeats win. */
const EXTRACTION_NICE = 5

function extractionPool(threads: number): Piscina {
  pool ??= new Piscina({
    filename: threadModule(import.meta.url, 'extract-thread'),
    minThreads: 1,
    maxThreads: Math.max(1, threads),
    idleTimeout: 60_000,
    niceIncrement: EXTRACTION_NICE,
  })
  return pool
}

export async function closeExtractionPool(): Promise<void> {
  const closing = pool
  pool = undefined
  await closing?.destroy()
}

export class BuiltinExtractor implements Extractor {
  readonly name = 'builtin'
  constructor(private readonly threads: number = defaultExtractThreads()) {}

  async extract(text: string, signal?: AbortSignal): Promise<Extraction> {
    return (await extractionPool(this.threads).run(text, signal ? { signal } : {})) as Extraction
  }
}
