/**
 * `npm run bench:graph` (or `BENCH_SECTIONS=graph npm run bench`): the memory graph's figures,
 * printed, never asserted. Real prose: Debian's python3.11-doc (scripts/fetch-corpus.sh).
 *   (p) projection of BENCH_GRAPH_CHUNKS (10,000) real chunks with the built-in extractor by one
 *       in-process worker (extraction on its thread pool, database writes included), beside the
 *       extractor's own rate on the same chunks (every k-th of them: a sample of
 *       BENCH_GRAPH_BASELINE (1,000)): on one core (a child pinned to CPU 0 with taskset, before
 *       and after the projection; the target's baseline), on this process's one thread (whose
 *       V8 helper threads may use the other core), and on the extraction pool's threads with no
 *       database; and the worker's event-loop delay p99 while projecting
 *   (d) decay of BENCH_DECAY_CLAIMS (1,000,000) claims of one set
 *   (u) dedup over BENCH_DEDUP_ENTITIES (100,000) entities of one set, names built from corpus words
 * Knobs: AIZK_BENCH_URL, BENCH_GRAPH_SECTIONS ("p d u"), BENCH_GRAPH_CHUNK_CHARS (1200: the corpus
 * holds ~6,200 chunks of 2,000 characters, ~10,400 of 1,200), AIZK_GRAPH_EXTRACT_THREADS.
 */
import { execFile } from 'node:child_process'
import os from 'node:os'
import { promisify } from 'node:util'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import pg from 'pg'
import { migrate } from '../src/db/migrate.js'
import { parseSettings } from '../src/settings.js'
import { corpusFiles } from '../test/graph/helpers/corpus.js'
import { corpusChunks, corpusWords, insertChunks } from './graph-data.js'
import { benchDecay, benchDedup } from './graph-passes.js'
import { cpuSeconds } from './process-stats.js'
import { evenSample, type ExtractRate, measureExtractor } from './extract-rate.js'

const env = process.env
const num = (name: string, d: number) => (env[name] ? Number(env[name]) : d)
const cfg = {
  server: env.AIZK_BENCH_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  sections: (env.BENCH_GRAPH_SECTIONS ?? 'p d u').split(/[\s,]+/).filter(Boolean),
  chunks: num('BENCH_GRAPH_CHUNKS', 10_000),
  chunkChars: num('BENCH_GRAPH_CHUNK_CHARS', 1200),
  baseline: num('BENCH_GRAPH_BASELINE', 1000),
  claims: num('BENCH_DECAY_CLAIMS', 1_000_000),
  entities: num('BENCH_DEDUP_ENTITIES', 100_000),
}
const SET = ['11111111-0000-4000-8000-00000000000b']
type Row = { section: string; what: string; value: string; note?: string }
const rows: Row[] = []
/** Keep a figure for the table, and echo it to stderr now: a long run shows its figures as it goes. */
function record(...items: Row[]): void {
  for (const r of items) process.stderr.write(`bench: ${r.section} | ${r.what} | ${r.value} | ${r.note ?? ''}\n`)
  rows.push(...items)
}
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })

async function admin(server: string, sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: server })
  await c.connect()
  try {
    await c.query(sql)
  } finally {
    await c.end()
  }
}

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000

/** CPU seconds so far of each backend of this database (the server runs on this machine). */
async function backendCpu(pool: pg.Pool): Promise<Map<number, number>> {
  const { rows } = await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()')
  const out = new Map<number, number>()
  for (const { pid } of rows) {
    try {
      out.set(pid, cpuSeconds(pid))
    } catch {}
  }
  return out
}

/** The extractor's rate in a child pinned to CPU 0 (bench/extract-baseline-child.ts); undefined without taskset. */
async function oneCoreRate(chunks: number): Promise<ExtractRate | undefined> {
  const args = ['-c', '0', process.execPath, '--import', 'tsx', 'bench/extract-baseline-child.ts', String(cfg.chunkChars), String(chunks), String(cfg.baseline)]
  try {
    const { stdout } = await promisify(execFile)('taskset', args, { maxBuffer: 1 << 20 })
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as ExtractRate
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
}

async function sectionProjection(url: string, pool: pg.Pool): Promise<void> {
  const chunks = corpusChunks(corpusFiles(), cfg.chunkChars).slice(0, cfg.chunks)
  const avg = chunks.reduce((a, c) => a + c.length, 0) / chunks.length
  process.stderr.write(`bench: ${chunks.length} chunks of ${fmt(avg)} characters on average\n`)

  // The baseline: the extractor alone over an even sample of the same chunks, on one core (a
  // child pinned to CPU 0, measured before and after the projection: the target's "one core"),
  // and on this process's thread, whose V8 helper threads may use the second core.
  const { sample, step } = evenSample(chunks, cfg.baseline)
  const pinnedBefore = await oneCoreRate(chunks.length)
  const single = measureExtractor(sample)
  record({
    section: 'p',
    what: 'built-in extractor alone, one thread',
    value: `${fmt(single.rate, 1)} chunks/s`,
    note: `${sample.length} of the chunks (every ${step}th); ${fmt(single.cpuMs, 1)} ms CPU a chunk; the process used ${fmt(single.cores, 2)} cores (V8's own threads)`,
  })

  // The same sample on the worker's extraction pool, no database: what the threads alone can do.
  const settings0 = parseSettings(process.env)
  const threads = settings0.graphExtractThreads ?? Math.min(4, os.availableParallelism())
  const { BuiltinExtractor, closeExtractionPool } = await import('../src/graph/extract-pool.js')
  const extractor = new BuiltinExtractor(threads)
  await Promise.all(Array.from({ length: threads * 2 }, () => extractor.extract(sample[0])))
  const t2 = performance.now()
  const cpu2 = process.cpuUsage()
  let next = 0
  await Promise.all(Array.from({ length: threads * 2 }, async () => {
    while (next < sample.length) await extractor.extract(sample[next++])
  }))
  const pooled = sample.length / ((performance.now() - t2) / 1000)
  const pooledCpuMs = cpuMs(process.cpuUsage(cpu2)) / sample.length
  await closeExtractionPool()
  record({
    section: 'p',
    what: `built-in extractor on the extraction pool (${threads} threads), no database`,
    value: `${fmt(pooled, 1)} chunks/s`,
    note: `${fmt(pooled / single.rate, 2)}x the extractor alone on one thread; ${fmt(pooledCpuMs, 1)} ms CPU a chunk`,
  })

  await insertChunks(pool, SET, chunks)
  await pool.query('VACUUM ANALYZE')
  Object.assign(process.env, {
    AIZK_DATABASE_URL: url,
    AIZK_WORKER_NO_SCHEDULER: 'true',
    AIZK_WORKER_ENTRYPOINTS: 'aizk_build_graph_chunk',
    AIZK_WORKER_LOG_JOBS: 'false',
  })
  const settings = parseSettings(process.env)
  const { startWorker } = await import('../src/app/run-worker.js')
  const histogram = monitorEventLoopDelay({ resolution: 10 })
  const worker = await startWorker({ settings })
  histogram.enable()
  const backends0 = await backendCpu(pool)
  const cpu1 = process.cpuUsage()
  const t1 = performance.now()
  let left = chunks.length
  // Database sessions sampled every half second: how many run, and how many of those wait on a lock.
  const sampled = { active: 0, lock: 0 }
  while (left > 0) {
    await new Promise((r) => setTimeout(r, 500))
    left = (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM chunk WHERE projection_status <> 'projected'")).rows[0].n
    const { rows: s } = await pool.query<{ active: number; lock: number }>(
      "SELECT count(*)::int AS active, count(*) FILTER (WHERE wait_event_type = 'Lock')::int AS lock FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()",
    )
    sampled.active += s[0].active
    sampled.lock += s[0].lock
  }
  const seconds = (performance.now() - t1) / 1000
  const workerCpuMs = cpuMs(process.cpuUsage(cpu1)) / chunks.length
  const backends1 = await backendCpu(pool)
  const databaseCpuMs = ([...backends1].reduce((a, [pid, s]) => a + s - (backends0.get(pid) ?? 0), 0) * 1000) / chunks.length
  histogram.disable()
  await worker.stop()
  const rate = chunks.length / seconds
  const pinnedAfter = await oneCoreRate(chunks.length)
  const oneCore = pinnedBefore && pinnedAfter ? (pinnedBefore.rate + pinnedAfter.rate) / 2 : undefined
  record({
    section: 'p',
    what: 'built-in extractor alone, on one core (pinned to CPU 0)',
    value: oneCore ? `${fmt(oneCore, 1)} chunks/s` : 'n/a',
    note: pinnedBefore && pinnedAfter
      ? `before the projection ${fmt(pinnedBefore.rate, 1)}, after ${fmt(pinnedAfter.rate, 1)} (${fmt(pinnedBefore.cpuMs, 1)} and ${fmt(pinnedAfter.cpuMs, 1)} ms CPU a chunk); the same ${sample.length} chunks`
      : 'taskset (util-linux) not found: no pinned baseline',
  })
  record({
    section: 'p',
    what: `projection by one worker (limit ${settings.graphBuildConcurrency}, ${threads} extraction threads)`,
    value: `${fmt(rate, 1)} chunks/s`,
    note: `${fmt(chunks.length)} chunks in ${fmt(seconds, 1)} s; ${oneCore && pinnedBefore && pinnedAfter ? `**${fmt(rate / oneCore, 2)}x the extractor on one core** (target 1.3x; ${fmt(rate / Math.max(pinnedBefore.rate, pinnedAfter.rate), 2)}x its faster run); ` : ''}${fmt(rate / single.rate, 2)}x the extractor on one unpinned thread`,
  })
  // Load-independent: what one chunk costs in CPU, and so the best the idle cores could do.
  const cost = workerCpuMs + databaseCpuMs
  const ceiling = (os.availableParallelism() * 1000) / cost
  record({
    section: 'p',
    what: 'CPU a projected chunk (worker process with its threads, and its database backends)',
    value: `${fmt(cost, 1)} ms`,
    note: `worker ${fmt(workerCpuMs, 1)} ms, database ${fmt(databaseCpuMs, 1)} ms; ${os.availableParallelism()} idle cores could project at most ${fmt(ceiling, 1)} chunks/s${oneCore ? ` (${fmt(ceiling / oneCore, 2)}x the one-core rate)` : ''}`,
  })
  record({
    section: 'p',
    what: 'database sessions waiting on a lock while projecting',
    value: `${fmt((100 * sampled.lock) / Math.max(1, sampled.active), 0)} %`,
    note: `${sampled.lock} of ${sampled.active} active sessions sampled every 0.5 s`,
  })
  record({
    section: 'p',
    what: "worker's event-loop delay while projecting",
    value: `p99 ${fmt(histogram.percentile(99) / 1e6, 1)} ms`,
    note: `p50 ${fmt(histogram.percentile(50) / 1e6, 1)} ms, max ${fmt(histogram.max / 1e6, 1)} ms`,
  })
  const { rows: made } = await pool.query(
    'SELECT (SELECT count(*) FROM entity) AS e, (SELECT count(*) FROM claim) AS c, (SELECT count(*) FROM mention) AS m, (SELECT count(*) FROM profile) AS p',
  )
  record({ section: 'p', what: 'graph written', value: `${fmt(Number(made[0].e))} entities`, note: `${fmt(Number(made[0].c))} claims, ${fmt(Number(made[0].m))} mentions, ${fmt(Number(made[0].p))} dirty profiles` })
}

export async function runGraphBench(): Promise<void> {
  const dbName = `aizk_bench_graph_${process.pid}`
  const u = new URL(cfg.server)
  u.pathname = `/${dbName}`
  const url = u.toString()
  await admin(cfg.server, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
  await admin(cfg.server, `CREATE DATABASE ${dbName}`)
  const pool = new pg.Pool({ connectionString: url, max: 8 })
  pool.on('error', () => {})
  try {
    const client = await pool.connect()
    await migrate(client, { appRole: env.AIZK_APP_ROLE ?? 'aizk_app' }).finally(() => client.release())
    for (const s of cfg.sections) {
      process.stderr.write(`bench: graph section ${s}\n`)
      if (s === 'p') await sectionProjection(url, pool)
      else if (s === 'd') record(...(await benchDecay(pool, SET, cfg.claims)))
      else if (s === 'u') record(...(await benchDedup(pool, SET, cfg.entities, corpusWords(corpusFiles()))))
    }
  } finally {
    await pool.end()
    await admin(cfg.server, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
  }
  process.stdout.write(
    `\naizk memory graph benchmark (node ${process.version}, ${os.cpus().length} cpus, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; corpus: Debian python3.11-doc)\n\n`,
  )
  process.stdout.write('| | measurement | result | notes |\n|---|---|---|---|\n')
  for (const r of rows) process.stdout.write(`| ${r.section} | ${r.what} | ${r.value} | ${r.note ?? ''} |\n`)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runGraphBench()
  process.exit(0)
}
