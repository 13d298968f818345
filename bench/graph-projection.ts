/**
 * Section projection of the graph benchmark: projection of real chunks with the built-in extractor by one
 * in-process worker (extraction on its thread pool, database writes included), against the
 * extractor's own rate on the same chunks.
 *
 * This machine's host is noisy in phases: the same pinned extraction runs at 50 chunks/s, then at
 * 33 a few seconds later. So the projection runs in rounds (its chunks inserted a round at a time,
 * the worker idle between), and the one-core baseline (a child pinned to CPU 0, warmed up) is
 * measured before the first round and after every round. Each round is compared with the
 * baselines on either side of it, and the median of those ratios is the figure least moved by a
 * slow phase.
 */
import { execFile } from 'node:child_process'
import os from 'node:os'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { promisify } from 'node:util'
import type pg from 'pg'
import { parseSettings } from '../src/settings.js'
import { backendCpuMs, backendCpuSpent, mainThreadCpuMs } from './cpu.js'
import { baselineSets, type ExtractRate, measureExtractor } from './extract-rate.js'
import { benchCorpusFiles, corpusChunks, insertChunks } from './graph-data.js'
import { fmt, type Row } from './graph-rows.js'
import { median } from './process-stats.js'

export interface ProjectionBenchConfig {
  chunks: number
  chunkChars: number
  /** Chunks each baseline measures (after `warmup` others). */
  baseline: number
  warmup: number
  rounds: number
}

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000
const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length

/** The extractor's rate in a child pinned to CPU 0 (bench/extract-baseline-child.ts); undefined without taskset. */
async function oneCoreRate(cfg: ProjectionBenchConfig, chunks: number): Promise<ExtractRate | undefined> {
  const child = ['bench/extract-baseline-child.ts', cfg.chunkChars, chunks, cfg.baseline, cfg.warmup].map(String)
  try {
    const { stdout } = await promisify(execFile)('taskset', ['-c', '0', process.execPath, '--import', 'tsx', ...child], { maxBuffer: 1 << 20 })
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as ExtractRate
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
}

/** The baseline's rate on the sampled chunks of round `round` (sample k is chunk k * step). */
function sliceRate(rate: ExtractRate, round: number, step: number, per: number): number {
  const ms = rate.perChunkMs.filter((_, k) => Math.floor((k * step) / per) === round)
  return ms.length / (ms.reduce((a, x) => a + x, 0) / 1000)
}

/** Chunks still waiting to be projected (chunk_projection_pending_idx answers it). */
async function pending(pool: pg.Pool): Promise<number> {
  return (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM chunk WHERE projection_status = 'pending'")).rows[0].n
}

/** The extractor alone: on this process's one thread, then on the worker's pool with no database. */
async function extractorAlone(
  record: (...r: Row[]) => void,
  sample: string[],
  warm: string[],
  step: number,
): Promise<{ single: ExtractRate; threads: number; pooledCpuMs: number }> {
  const single = measureExtractor(sample, warm)
  record({
    section: 'projection',
    what: 'built-in extractor alone, one thread',
    value: `${fmt(single.rate, 1)} chunks/s`,
    note: `${sample.length} of the chunks (every ${step}th, after ${warm.length} others); ${fmt(single.cpuMs, 1)} ms CPU a chunk; the process used ${fmt(single.cores, 2)} cores (V8's own threads)`,
  })
  const threads = parseSettings(process.env).graphExtractThreads ?? Math.min(4, os.availableParallelism())
  const { BuiltinExtractor } = await import('../src/graph/extract/extract-pool.js')
  const extractor = new BuiltinExtractor(threads)
  const drain = async (texts: string[]) => {
    let next = 0
    await Promise.all(
      Array.from({ length: threads * 2 }, async () => {
        while (next < texts.length) await extractor.extract(texts[next++])
      }),
    )
  }
  // Each thread warms as long as the baseline does; the pool stays open, so the worker below
  // projects on these warm threads, as a long-running worker would.
  await drain(Array.from({ length: threads }, () => warm).flat())
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  await drain(sample)
  const pooled = sample.length / ((performance.now() - t0) / 1000)
  const pooledCpuMs = cpuMs(process.cpuUsage(cpu0)) / sample.length
  record({
    section: 'projection',
    what: `built-in extractor on the extraction pool (${threads} threads), no database`,
    value: `${fmt(pooled, 1)} chunks/s`,
    note: `${fmt(pooled / single.rate, 2)}x the extractor alone on one thread; ${fmt(pooledCpuMs, 1)} ms CPU a chunk`,
  })
  return { single, threads, pooledCpuMs }
}

export async function benchProjection(url: string, pool: pg.Pool, set: string[], cfg: ProjectionBenchConfig, record: (...r: Row[]) => void): Promise<void> {
  const chunks = corpusChunks(benchCorpusFiles(), cfg.chunkChars).slice(0, cfg.chunks)
  const avg = chunks.reduce((a, c) => a + c.length, 0) / chunks.length
  process.stderr.write(`bench: ${chunks.length} chunks of ${fmt(avg)} characters on average, ${cfg.rounds} rounds\n`)
  const { sample, warm, step } = baselineSets(chunks, cfg.baseline, cfg.warmup)
  const { single, threads, pooledCpuMs } = await extractorAlone(record, sample, warm, step)

  Object.assign(process.env, {
    AIZK_DATABASE_URL: url,
    AIZK_WORKER_NO_SCHEDULER: 'true',
    AIZK_WORKER_ENTRYPOINTS: 'aizk_build_graph_chunk',
    AIZK_WORKER_LOG_JOBS: 'false',
  })
  const settings = parseSettings(process.env)
  const { startWorker } = await import('../src/app/run-worker.js')
  const pinned = [await oneCoreRate(cfg, chunks.length)]
  const worker = await startWorker({ settings })
  // One histogram a round: a histogram disabled and enabled again counts the pause as one delay.
  const rounds: { seconds: number; chunks: number; p50: number; p99: number; max: number }[] = []
  let workerCpuMs = 0
  let loopCpuMs = 0
  let databaseCpuMs = 0
  // Database sessions sampled every half second: how many run, and how many of those wait on a lock.
  const sampled = { active: 0, lock: 0 }
  const per = Math.ceil(chunks.length / cfg.rounds)
  for (let r = 0; r < cfg.rounds; r++) {
    const part = chunks.slice(r * per, (r + 1) * per)
    await insertChunks(pool, set, part)
    const backends0 = await backendCpuMs(pool)
    const cpu0 = process.cpuUsage()
    const loop0 = mainThreadCpuMs()
    const t0 = performance.now()
    const histogram = monitorEventLoopDelay({ resolution: 10 })
    histogram.enable()
    for (let polls = 1; (await pending(pool)) > 0; polls++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      if (polls % 5 === 0) {
        const { rows: s } = await pool.query<{ active: number; lock: number }>(
          "SELECT count(*)::int AS active, count(*) FILTER (WHERE wait_event_type = 'Lock')::int AS lock FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()",
        )
        sampled.active += s[0].active
        sampled.lock += s[0].lock
      }
    }
    histogram.disable()
    const delay = (ns: number) => ns / 1e6
    rounds.push({
      seconds: (performance.now() - t0) / 1000,
      chunks: part.length,
      p50: delay(histogram.percentile(50)),
      p99: delay(histogram.percentile(99)),
      max: delay(histogram.max),
    })
    workerCpuMs += cpuMs(process.cpuUsage(cpu0))
    loopCpuMs += mainThreadCpuMs() - loop0
    databaseCpuMs += backendCpuSpent(backends0, await backendCpuMs(pool))
    // The worker stays up but idle (nothing left to pick) while the next baseline runs.
    pinned.push(await oneCoreRate(cfg, chunks.length))
    process.stderr.write(
      `bench: round ${r + 1}: ${part.length} chunks in ${fmt(rounds[r].seconds, 1)} s; one core after it ${pinned[r + 1] ? fmt(pinned[r + 1]!.rate, 1) : 'n/a'} chunks/s\n`,
    )
  }
  await worker.stop()
  const seconds = rounds.reduce((a, x) => a + x.seconds, 0)
  const rate = chunks.length / seconds
  const pins = pinned.every((p) => p) ? (pinned as ExtractRate[]) : undefined
  const oneCore = pins ? mean(pins.map((p) => p.rate)) : undefined
  record({
    section: 'projection',
    what: 'built-in extractor alone, on one core (pinned to CPU 0)',
    value: oneCore ? `${fmt(oneCore, 1)} chunks/s` : 'n/a',
    note: pins
      ? `mean of ${pins.length} runs, one before the first round and one after each (${pins.map((p) => fmt(p.rate, 1)).join(', ')}); each ${cfg.baseline} of the chunks after a warm-up on ${cfg.warmup} others; ${fmt(mean(pins.map((p) => p.cpuMs)), 1)} ms CPU a chunk`
      : 'taskset (util-linux) not found: no pinned baseline',
  })
  // A round's chunks are its own documents, denser or lighter than the average: each round is
  // compared with the baseline's rate on the sampled chunks that fall in that round.
  const roundRatios = pins ? rounds.map((x, i) => x.chunks / x.seconds / mean([pins[i], pins[i + 1]].map((p) => sliceRate(p, i, step, per)))) : []
  record({
    section: 'projection',
    what: `projection by one worker (limit ${settings.graphBuildConcurrency}, ${threads} extraction threads)`,
    value: `${fmt(rate, 1)} chunks/s`,
    note:
      `${fmt(chunks.length)} chunks in ${cfg.rounds} rounds, ${fmt(seconds, 1)} s projecting; ` +
      (oneCore
        ? `**${fmt(rate / oneCore, 2)}x the extractor on one core** (target 1.3x); each round against the baselines beside it, on its own chunks: median ${fmt(median(roundRatios), 2)}x (${roundRatios.map((x) => fmt(x, 2)).join(', ')}); `
        : '') +
      `${fmt(rate / single.rate, 2)}x the extractor on one unpinned thread`,
  })
  // Load-independent: what one chunk costs in CPU, and so the best the idle cores could do.
  const workerPerChunk = workerCpuMs / chunks.length
  const databasePerChunk = databaseCpuMs / chunks.length
  const cost = workerPerChunk + databasePerChunk
  const ceiling = (os.availableParallelism() * 1000) / cost
  record({
    section: 'projection',
    what: 'CPU a projected chunk (worker process with its threads, and its database backends)',
    value: `${fmt(cost, 1)} ms`,
    note: `worker ${fmt(workerPerChunk, 1)} ms (its event loop ${fmt(loopCpuMs / chunks.length, 1)}, extraction threads and V8's helpers ${fmt(workerPerChunk - loopCpuMs / chunks.length, 1)}), database ${fmt(databasePerChunk, 1)} ms; ${os.availableParallelism()} idle cores could project at most ${fmt(ceiling, 1)} chunks/s${oneCore ? ` (${fmt(ceiling / oneCore, 2)}x the one-core rate)` : ''}`,
  })
  // Issue 48's measure of what projecting adds to extracting, per core: target at most 1.6x.
  record({
    section: 'projection',
    what: "CPU a projected chunk against the extractor's own",
    value: `${fmt(cost / pooledCpuMs, 2)}x`,
    note: `worker and database ${fmt(cost, 1)} ms against ${fmt(pooledCpuMs, 1)} ms of extraction on the same warm pool with no database (target at most 1.6x); beyond extraction ${fmt(cost - pooledCpuMs, 1)} ms a chunk${pins ? `; against the pinned one-core extractor's ${fmt(mean(pins.map((p) => p.cpuMs)), 1)} ms: ${fmt(cost / mean(pins.map((p) => p.cpuMs)), 2)}x` : ''}`,
  })
  record({
    section: 'projection',
    what: 'database sessions waiting on a lock while projecting',
    value: `${fmt((100 * sampled.lock) / Math.max(1, sampled.active), 0)} %`,
    note: `${sampled.lock} of ${sampled.active} active sessions sampled every 0.5 s`,
  })
  record({
    section: 'projection',
    what: "worker's event-loop delay while projecting",
    value: `p99 ${fmt(Math.max(...rounds.map((x) => x.p99)), 1)} ms`,
    note: `the worst round's p99; p99 by round ${rounds.map((x) => fmt(x.p99, 1)).join(', ')} ms; p50 ${fmt(median(rounds.map((x) => x.p50)), 1)} ms; max ${fmt(Math.max(...rounds.map((x) => x.max)), 1)} ms`,
  })
  const { rows: made } = await pool.query(
    "SELECT (SELECT count(*) FROM entity) AS e, (SELECT count(*) FROM claim) AS c, (SELECT count(*) FROM mention) AS m, (SELECT count(*) FROM profile) AS p, (SELECT count(*) FROM chunk WHERE projection_status = 'failed') AS f",
  )
  record({
    section: 'projection',
    what: 'graph written',
    value: `${fmt(Number(made[0].e))} entities`,
    note: `${fmt(Number(made[0].c))} claims, ${fmt(Number(made[0].m))} mentions, ${fmt(Number(made[0].p))} dirty profiles; ${fmt(Number(made[0].f))} chunks failed`,
  })
}
