/**
 * The built-in extractor's own rate, the projection benchmark's baseline: an even sample of the
 * chunks, extracted one after another on the calling thread after a warm-up on other chunks. Run
 * in the benchmark's own process (one JavaScript thread, whose V8 helper threads may use the
 * other core) and in a child pinned to one CPU (bench/extract-baseline-child.ts).
 *
 * The warm-up matters: the extractor's first ~200 chunks run 1.5 to 4 times slower than the
 * rest (compiled code and compromise's own caches warming, on any text), so a baseline measured
 * cold reads low and flatters every ratio taken against it.
 */
import { extractBuiltin } from '../src/graph/extract/builtin-extractor.js'

export interface ExtractRate {
  /** Chunks a second. */
  rate: number
  /** Process CPU a chunk, ms (V8's helper threads included). */
  cpuMs: number
  /** Cores the process kept busy meanwhile. */
  cores: number
  chunks: number
  /** Milliseconds each chunk of the sample took, in order. */
  perChunkMs: number[]
}

/** Every k-th chunk, `size` of them. */
export function evenSample(chunks: string[], size: number): { sample: string[]; step: number } {
  const step = Math.max(1, Math.floor(chunks.length / size))
  return { sample: chunks.filter((_, i) => i % step === 0).slice(0, size), step }
}

/** The sample, and a warm-up of `warmup` chunks spread over the ones outside it. */
export function baselineSets(chunks: string[], size: number, warmup: number): { sample: string[]; warm: string[]; step: number } {
  const { sample, step } = evenSample(chunks, size)
  const { sample: warm } = evenSample(chunks.filter((_, i) => i % step !== 0), warmup)
  return { sample, warm, step }
}

export function measureExtractor(sample: string[], warm: string[]): ExtractRate {
  for (const text of warm) extractBuiltin(text)
  const perChunkMs: number[] = []
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  for (const text of sample) {
    const t = performance.now()
    extractBuiltin(text)
    perChunkMs.push(performance.now() - t)
  }
  const ms = performance.now() - t0
  const used = process.cpuUsage(cpu0)
  const cpuMs = (used.user + used.system) / 1000
  return { rate: sample.length / (ms / 1000), cpuMs: cpuMs / sample.length, cores: cpuMs / ms, chunks: sample.length, perChunkMs }
}
