/**
 * The extractor's rate on one core: bench/graph.ts runs this under `taskset -c 0`, so the
 * extracting thread and V8's garbage-collector and compiler threads share one CPU, as the
 * target's baseline ("on one core") means. Args: chunk size in characters, chunks, sample size.
 * Prints one JSON line (ExtractRate).
 */
import { corpusFiles } from '../test/graph/helpers/corpus.js'
import { evenSample, measureExtractor } from './extract-rate.js'
import { corpusChunks } from './graph-data.js'

const [chunkChars, count, size] = process.argv.slice(2).map(Number)
const chunks = corpusChunks(corpusFiles(), chunkChars).slice(0, count)
process.stdout.write(`${JSON.stringify(measureExtractor(evenSample(chunks, size).sample))}\n`)
