/**
 * `npm run bench:graph` (or `BENCH_SECTIONS=graph npm run bench`): the memory graph's figures,
 * printed, never asserted. Real prose: Debian's python3.11-doc, then perl-doc's manual pages
 * (bench/graph-data.ts; `scripts/fetch-corpus.sh --bench` unpacks both into the user's cache).
 *   projection: projection of BENCH_GRAPH_CHUNKS (10,000) real chunks with the built-in extractor by one
 *       in-process worker, in BENCH_GRAPH_ROUNDS (5) rounds, beside the extractor's own rate on the
 *       same chunks (BENCH_GRAPH_BASELINE (250) of them after a warm-up on BENCH_GRAPH_WARMUP (1,500)
 *       others), on one core before and after every round: bench/graph-projection.ts
 *   decay: decay of BENCH_GRAPH_DECAY_CLAIMS (1,000,000) claims of one set
 *   dedup: dedup over BENCH_GRAPH_DEDUP_ENTITIES (100,000) entities of one set, names built from corpus words
 *   profiles: model-written profiles of BENCH_GRAPH_PROFILE_ENTITIES (400) entities against a chat
 *       stand-in answering in BENCH_GRAPH_MODEL_MS (50) ms, one request in flight against four
 *       (bench/graph-profiles.ts; only when named)
 * Knobs: docs/benchmarks.md#knobs (BENCH_GRAPH_*; BENCH_GRAPH_SQL runs on the scratch database first, a
 * schema experiment); BENCH_GRAPH_CHUNK_CHARS defaults to the
 * product's AIZK_CHUNK_MAX_CHARS (2,000: the corpus holds ~10,500 chunks of it).
 */
import os from 'node:os'
import pg from 'pg'
import { corpusWords, pythonDocFiles } from './graph-data.js'
import { benchDecay, benchDedup } from './graph-passes.js'
import { benchModelProfiles } from './graph-profiles.js'
import { benchProjection } from './graph-projection.js'
import type { Row } from './graph-rows.js'
import { num, text, words } from './knobs.js'
import { createScratchDb } from './scratch-db.js'

const cfg = {
  sections: words('BENCH_GRAPH_SECTIONS', 'projection decay dedup'),
  chunks: num('BENCH_GRAPH_CHUNKS', 10_000),
  chunkChars: num('BENCH_GRAPH_CHUNK_CHARS', 2000),
  baseline: num('BENCH_GRAPH_BASELINE', 250),
  warmup: num('BENCH_GRAPH_WARMUP', 1500),
  rounds: num('BENCH_GRAPH_ROUNDS', 5),
  claims: num('BENCH_GRAPH_DECAY_CLAIMS', 1_000_000),
  entities: num('BENCH_GRAPH_DEDUP_ENTITIES', 100_000),
  profiles: num('BENCH_GRAPH_PROFILE_ENTITIES', 400),
  modelMs: num('BENCH_GRAPH_MODEL_MS', 50),
}
const SET = ['11111111-0000-4000-8000-00000000000b']
const rows: Row[] = []
/** Keep a figure for the table, and echo it to stderr now: a long run shows its figures as it goes. */
function record(...items: Row[]): void {
  for (const r of items) process.stderr.write(`bench: ${r.section} | ${r.what} | ${r.value} | ${r.note ?? ''}\n`)
  rows.push(...items)
}

export async function runGraphBench(): Promise<void> {
  const scratch = await createScratchDb(`aizk_bench_graph_${process.pid}`)
  const url = scratch.url
  const pool = new pg.Pool({ connectionString: url, max: 8 })
  pool.on('error', () => {})
  try {
    const experiment = text('BENCH_GRAPH_SQL')
    if (experiment) await pool.query(experiment)
    for (const s of cfg.sections) {
      process.stderr.write(`bench: graph section ${s}\n`)
      if (s === 'projection') await benchProjection(url, pool, SET, cfg, record)
      else if (s === 'decay') record(...(await benchDecay(pool, SET, cfg.claims)))
      else if (s === 'dedup') record(...(await benchDedup(pool, SET, cfg.entities, corpusWords(pythonDocFiles()))))
      else if (s === 'profiles') record(...(await benchModelProfiles(pool, SET, cfg.profiles, cfg.modelMs)))
    }
  } finally {
    await pool.end()
    await scratch.drop()
  }
  process.stdout.write(
    `\naizk memory graph benchmark (node ${process.version}, ${os.cpus().length} cpus, load ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}; corpus: Debian python3.11-doc and perl-doc)\n\n`,
  )
  process.stdout.write('| | measurement | result | notes |\n|---|---|---|---|\n')
  for (const r of rows) process.stdout.write(`| ${r.section} | ${r.what} | ${r.value} | ${r.note ?? ''} |\n`)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runGraphBench()
  process.exit(0)
}
