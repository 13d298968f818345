// aizk's adapter for the peer benchmark harness (a separate checkout, $PEERS here; see
// docs/benchmarks.md#side-by-side-with-graphile-worker-and-pg-boss):
//   npm run build && ADAPTER_AIZK=$PWD/bench/peers-adapter.mjs SYSTEMS="aizk graphile-worker" \
//     W2_graphile_worker=batched $PEERS/run-all.sh
// It calls the library directly (dist/), the same Worker loop `aizk worker` runs.
// The row is named after the system the harness loaded it as, so two trees run side by side in
// one harness run: SYSTEMS="aizk aizk-before" ADAPTER_AIZK=... ADAPTER_AIZK_BEFORE=/before/bench/peers-adapter.mjs
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { z } from 'zod'
import { enqueue, enqueueMany, JobRegistry, migrate, parseSettings, QueueJob, Worker } from '../dist/index.js'
import { readCounts } from '../dist/queue/counts.js'

const ENTRYPOINT = 'bench_noop'

/** The system name whose ADAPTER_<NAME> variable points at this file ('aizk' when none does). */
function systemName() {
  const self = fileURLToPath(import.meta.url)
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('ADAPTER_') && value && resolve(value) === self) return key.slice(8).toLowerCase().replace(/_/g, '-')
  }
  return 'aizk'
}
const name = systemName()

export default {
  name,
  dbSuffix: name.replace(/[^a-z0-9]/g, '_'),
  profiles: {
    default: {
      desc: "new Worker({batchSize: 64, concurrency: <the harness's BENCH_CONCURRENCY>}): aizk_pick 64 per round trip, one pick on its way at a time, doubling while picks come back full up to 512, local queue 1,024 capped at about 1 s of work, completions written beside the picks by statements of their own (gathered 15 ms or 512 while busy), LISTEN/NOTIFY + 1 s jittered poll, heartbeat 5 s",
      batchSize: 64,
      concurrency: 'harness',
    },
    batch64: {
      desc: "new Worker({batchSize: 64, concurrency: 256}) (aizk worker defaults): as default, but 256 handlers in flight whatever the harness's concurrency",
      batchSize: 64,
      concurrency: 256,
    },
    overlap: {
      desc: 'as default, with AIZK_QUEUE_PICKS_IN_FLIGHT=2: while picks come back full, a second pick is sent while the first is on its way',
      batchSize: 64,
      concurrency: 'harness',
      picksInFlight: 2,
    },
    batched: {
      desc: "new Worker({batchSize: 500, concurrency: <the harness's BENCH_CONCURRENCY>}): 500 per pick, growing to 512 while full (graphile-worker's batched profile holds 500 locally), local queue 2,000 capped at about 1 s of work",
      batchSize: 500,
      concurrency: 'harness',
    },
    tied: {
      desc: "new Worker({batchSize: <concurrency>, concurrency: <the harness's BENCH_CONCURRENCY>}): the pick batch equal to the concurrency",
      batchSize: 'harness',
      concurrency: 'harness',
    },
  },
  version: () => JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version,

  async install(ctx) {
    const client = new pg.Client({ connectionString: ctx.connectionString })
    await client.connect()
    try {
      await migrate(client, { appRole: process.env.AIZK_APP_ROLE ?? 'aizk_app' })
    } finally {
      await client.end()
    }
  },

  async producer(ctx) {
    const pool = new pg.Pool({ connectionString: ctx.connectionString, max: ctx.concurrency + 1 })
    return {
      enqueue: (payload) => enqueue(pool, { entrypoint: ENTRYPOINT, payload }),
      enqueueBulk: (payloads) =>
        enqueueMany(
          pool,
          payloads.map((payload) => ({ entrypoint: ENTRYPOINT, payload })),
        ),
      close: () => pool.end(),
    }
  },

  async worker(ctx, handler) {
    class BenchNoop extends QueueJob {
      static entrypoint = ENTRYPOINT
      static payload = z.any()
      async handle(payload) {
        await handler(payload)
      }
    }
    const registry = new JobRegistry()
    registry.register(BenchNoop)
    const pool = new pg.Pool({ connectionString: ctx.connectionString, max: 12 })
    pool.on('error', () => {})
    const worker = new Worker({
      pool,
      registry,
      settings: parseSettings({ AIZK_QUEUE_PICKS_IN_FLIGHT: String(ctx.settings.picksInFlight ?? process.env.AIZK_QUEUE_PICKS_IN_FLIGHT ?? 1) }),
      batchSize: ctx.settings.batchSize === 'harness' ? ctx.concurrency : ctx.settings.batchSize,
      concurrency: ctx.settings.concurrency === 'harness' ? ctx.concurrency : ctx.settings.concurrency,
      listen: { connectionString: ctx.connectionString },
    })
    await worker.start()
    return {
      async stop() {
        await worker.stop({ timeoutMs: 5000 })
        await pool.end()
      },
    }
  },

  // The harness polls this every 100 ms while a drain runs, and its CPU counts against the system.
  // aizk answers from its live counts (what `aizk status` reads): a count(*) filtered on status
  // scans the whole table in parallel, 36-47 ms of CPU a poll on 200,000 rows against 4-8 ms for
  // graphile-worker's unfiltered count (bench/results/queue.md, 2026-12-05).
  async remaining(_ctx, client) {
    return countOf(await readCounts(client), ['queued', 'picked'])
  },
  async failed(_ctx, client) {
    return countOf(await readCounts(client), ['failed'])
  },
}

function countOf(rows, statuses) {
  return rows.filter((r) => r.entrypoint === ENTRYPOINT && statuses.includes(r.status)).reduce((n, r) => n + r.n, 0)
}
