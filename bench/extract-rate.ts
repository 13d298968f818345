/**
 * The built-in extractor's own rate, the projection benchmark's baseline: an even sample of the
 * chunks, extracted one after another on the calling thread after one warm-up chunk. Run in
 * the benchmark's own process (one JavaScript thread, whose V8 helper threads may use the other
 * core) and in a child pinned to one CPU (bench/extract-baseline-child.ts).
 */
import { extractBuiltin } from '../src/graph/builtin-extractor.js'

export interface ExtractRate {
  /** Chunks a second. */
  rate: number
  /** Process CPU a chunk, ms (V8's helper threads included). */
  cpuMs: number
  /** Cores the process kept busy meanwhile. */
  cores: number
  chunks: number
}

/** Every k-th chunk, `size` of them. */
export function evenSample(chunks: string[], size: number): { sample: string[]; step: number } {
  const step = Math.max(1, Math.floor(chunks.length / size))
  return { sample: chunks.filter((_, i) => i % step === 0).slice(0, size), step }
}

export function measureExtractor(sample: string[]): ExtractRate {
  extractBuiltin(sample[0])
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  for (const text of sample) extractBuiltin(text)
  const ms = performance.now() - t0
  const used = process.cpuUsage(cpu0)
  const cpuMs = (used.user + used.system) / 1000
  return { rate: sample.length / (ms / 1000), cpuMs: cpuMs / sample.length, cores: cpuMs / ms, chunks: sample.length }
}
