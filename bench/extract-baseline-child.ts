/**
 * The extractor's rate on one core: bench/graph-projection.ts runs this under `taskset -c 0`, so
 * the extracting thread and V8's garbage-collector and compiler threads share one CPU, as the
 * target's baseline ("on one core") means. Args: chunk size in characters, chunks, sample size,
 * warm-up size. Prints one JSON line (ExtractRate).
 */
import { baselineSets, measureExtractor } from './extract-rate.js'
import { benchCorpusFiles, corpusChunks } from './graph-data.js'

const [chunkChars, count, size, warmup] = process.argv.slice(2).map(Number)
const chunks = corpusChunks(benchCorpusFiles(), chunkChars).slice(0, count)
const { sample, warm } = baselineSets(chunks, size, warmup)
process.stdout.write(`${JSON.stringify(measureExtractor(sample, warm))}\n`)
