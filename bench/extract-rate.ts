/**
 * The built-in extractor's own rate, the projection benchmark's baseline: an even sample of the
 * chunks, extracted one after another on the calling thread after a warm-up on other chunks. Run
 * in the benchmark's own process (one JavaScript thread, whose V8 helper threads may use the
 * other core) and in a child pinned to one CPU (bench/extract-baseline-child.ts).
 *
 * The warm-up matters, and takes long: pinned to one core, the extractor's CPU a chunk falls
 * from about 8 ms over its first 250 chunks to about 5 ms after 1,500 and still drifts down
 * after that (V8 optimising compromise's matcher, not a cache: the same functions run faster;
 * docs/memory-graph.md#benchmarks). A baseline warmed on a few hundred chunks reads about a
 * third low and flatters every ratio taken against it, so the warm-up cycles through the chunks
 * outside the sample until it has extracted `warmup` of them.
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

/** The sample, and a warm-up of `warmup` chunks spread over the ones outside it (cycled when fewer). */
export function baselineSets(chunks: string[], size: number, warmup: number): { sample: string[]; warm: string[]; step: number } {
  const { sample, step } = evenSample(chunks, size)
  const { sample: others } = evenSample(
    chunks.filter((_, i) => i % step !== 0),
    warmup,
  )
  const warm = Array.from({ length: others.length ? warmup : 0 }, (_, i) => others[i % others.length])
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
