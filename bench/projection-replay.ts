/**
 * What projection costs beyond extraction, without the extractor's noise: a real in-process
 * worker projects BENCH_REPLAY_CHUNKS (1,000) chunks of the benchmark corpus, in
 * BENCH_REPLAY_ROUNDS (2) rounds, whose extractions were made once beforehand (the built-in
 * extractor's `extract` answers from that table, a structured clone as a thread's answer is), so
 * the CPU it prints a chunk (this process with its threads, and its database backends) is the
 * queue, the scoped read, the write and the event loop alone, with the round trips a chunk by
 * kind. BENCH_REPLAY_AGAIN=1 then projects every chunk once more (a re-projection round: every
 * job enqueued again). BENCH_REPLAY_SQL runs on the scratch database before the first round (an experiment on
 * the schema: `DROP INDEX ...`). For an A/B, run it on two trees alternately.
 *   node --import tsx bench/projection-replay.ts
 */
import pg from 'pg'
import { extractBuiltin } from '../src/graph/extract/builtin-extractor.js'
import { BuiltinExtractor } from '../src/graph/extract/extract-pool.js'
import type { Extraction } from '../src/graph/extract/extraction.js'
import { enqueueChunkProjections } from '../src/ingest/projection.js'
import { parseSettings } from '../src/settings.js'
import { backendCpuMs, backendCpuSpent, mainThreadCpuMs } from './cpu.js'
import { benchCorpusFiles, corpusChunks, insertChunks } from './graph-data.js'
import { flag, num, text } from './knobs.js'
import { createScratchDb } from './scratch-db.js'

const chunks = corpusChunks(benchCorpusFiles(), 2000).slice(0, num('BENCH_REPLAY_CHUNKS', 1000))
const rounds = num('BENCH_REPLAY_ROUNDS', 2)
const extracted = new Map<string, Extraction>(chunks.map((c) => [c, extractBuiltin(c)]))
BuiltinExtractor.prototype.extract = async (chunkText: string) => {
  const e = extracted.get(chunkText)
  if (!e) throw new Error('a chunk the replay did not extract beforehand')
  return structuredClone(e)
}

/** Statements sent by any client of this process, by kind, while counting. */
const sent = new Map<string, number>()
let counting = false
const query = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (counting) {
    const q = args[0] as string | { name?: string; text?: string }
    const kind = typeof q === 'string' ? (q.startsWith('BEGIN') ? 'scoped transaction' : 'other') : (q.name ?? 'other')
    sent.set(kind, (sent.get(kind) ?? 0) + 1)
  }
  return query.apply(this, args)
} as typeof pg.Client.prototype.query

const SET = ['11111111-0000-4000-8000-00000000000b']
const scratch = await createScratchDb(`aizk_bench_replay_${process.pid}`)
const pool = new pg.Pool({ connectionString: scratch.url, max: 4 })
const experiment = text('BENCH_REPLAY_SQL')
if (experiment) await pool.query(experiment)
// Time in each database function, for the worker's connections (opened after this).
await pool.query(`DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET track_functions = ''all''', current_database()); END $$`)
Object.assign(process.env, {
  AIZK_DATABASE_URL: scratch.url,
  AIZK_WORKER_NO_SCHEDULER: 'true',
  AIZK_WORKER_ENTRYPOINTS: 'aizk_build_graph_chunk',
  AIZK_WORKER_LOG_JOBS: 'false',
})
const { startWorker } = await import('../src/app/run-worker.js')
const worker = await startWorker({ settings: parseSettings(process.env) })
// The queue's rows, not the chunks' status: a job leaves the table however it ends.
const queued = async () => (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pgqueuer WHERE entrypoint = 'aizk_build_graph_chunk'")).rows[0].n
const per = Math.ceil(chunks.length / rounds)
const fmt = (x: number) => x.toFixed(2)
/** Project what `enqueue` queued, and print what it cost a chunk. */
async function round(label: string, n: number, enqueue: () => Promise<unknown>): Promise<void> {
  await enqueue()
  const b0 = await backendCpuMs(pool)
  const cpu0 = process.cpuUsage()
  const loop0 = mainThreadCpuMs()
  const t0 = performance.now()
  sent.clear()
  counting = true
  while ((await queued()) > 0) await new Promise((resolve) => setTimeout(resolve, 100))
  counting = false
  const seconds = (performance.now() - t0) / 1000
  const u = process.cpuUsage(cpu0)
  const proc = (u.user + u.system) / 1000 / n
  const loop = (mainThreadCpuMs() - loop0) / n
  const db = backendCpuSpent(b0, await backendCpuMs(pool)) / n
  const trips = [...sent].sort((a, b) => b[1] - a[1]).map(([k, c]) => `${k} ${fmt(c / n)}`)
  process.stdout.write(
    `replay ${label}: ${n} chunks in ${seconds.toFixed(1)} s; a chunk: ${fmt(proc + db)} ms = process ${fmt(proc)} (loop ${fmt(loop)}, other threads ${fmt(proc - loop)}) + database ${fmt(db)}; statements a chunk: ${trips.join(', ')}\n`,
  )
}

try {
  for (let r = 0; r < rounds; r++) {
    const part = chunks.slice(r * per, (r + 1) * per)
    await round(`round ${r + 1}`, part.length, () => insertChunks(pool, SET, part))
  }
  if (flag('BENCH_REPLAY_AGAIN')) {
    // Every chunk projected once more (its job enqueued again), from the same extraction.
    const { rows: ids } = await pool.query<{ id: string }>('SELECT id::text AS id FROM chunk ORDER BY created, id')
    await round('re-projection', ids.length, () =>
      enqueueChunkProjections(
        pool,
        SET,
        ids.map((x) => x.id),
      ),
    )
  }
  const { rows } = await pool.query(
    `SELECT (SELECT count(*) FROM entity) AS entities, (SELECT count(*) FROM claim) AS claims, (SELECT count(*) FROM mention) AS mentions,
            (SELECT count(*) FROM chunk WHERE projection_status = 'failed') AS failed,
            (SELECT n_tup_upd FROM pg_stat_user_tables WHERE relname = 'chunk') AS chunk_updates,
            (SELECT n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'chunk') AS chunk_hot_updates`,
  )
  process.stdout.write(`replay graph: ${JSON.stringify(rows[0])}\n`)
  // A backend reports its function statistics when it goes idle: a moment for the last of them.
  await new Promise((resolve) => setTimeout(resolve, 1000))
  const { rows: fns } = await pool.query<{ funcname: string; calls: string; total: number; self: number }>(
    'SELECT funcname, calls, total_time AS total, self_time AS self FROM pg_stat_user_functions ORDER BY total_time DESC LIMIT 14',
  )
  for (const f of fns)
    process.stdout.write(`replay function ${f.funcname}: ${f.calls} calls, ${fmt(f.total / chunks.length)} ms a chunk (self ${fmt(f.self / chunks.length)})\n`)
} finally {
  await worker.stop()
  await pool.end()
  await scratch.drop()
}
process.exit(0)
