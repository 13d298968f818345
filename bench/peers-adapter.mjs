// aizk's adapter for the peer benchmark harness (a separate checkout, $PEERS here; see
// docs/benchmarks.md#side-by-side-with-graphile-worker-and-pg-boss):
//   npm run build && ADAPTER_AIZK=$PWD/bench/peers-adapter.mjs SYSTEMS="aizk graphile-worker" \
//     W2_graphile_worker=batched $PEERS/run-all.sh
// It calls the library directly (dist/), the same Worker loop `aizk worker` runs.
import { readFileSync } from 'node:fs'
import pg from 'pg'
import { z } from 'zod'
import { JobRegistry, QueueJob, Worker, enqueue, enqueueMany, migrate, parseSettings } from '../dist/index.js'

const ENTRYPOINT = 'bench_noop'

export default {
  name: 'aizk',
  dbSuffix: 'aizk',
  profiles: {
    batch64: {
      desc: 'new Worker({batchSize: 64, concurrency: 256}) (aizk worker defaults): aizk_pick 64 per round trip, two pickers, completions batched into one DELETE + log INSERT per flush (2 in flight), LISTEN/NOTIFY + 1 s jittered poll, heartbeat 5 s; handler concurrency 256, not the harness\'s 16',
      batchSize: 64,
      concurrency: 256,
    },
    c16: {
      desc: 'new Worker({batchSize: 16, concurrency: 16}): the harness\'s concurrency 16; otherwise as batch64',
      batchSize: 16,
      concurrency: 16,
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
      enqueueBulk: (payloads) => enqueueMany(pool, payloads.map((payload) => ({ entrypoint: ENTRYPOINT, payload }))),
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
      settings: parseSettings({}),
      batchSize: ctx.settings.batchSize,
      concurrency: ctx.settings.concurrency,
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

  async remaining(_ctx, client) {
    const r = await client.query("SELECT count(*)::int AS n FROM pgqueuer WHERE status IN ('queued', 'picked')")
    return r.rows[0].n
  },
  async failed(_ctx, client) {
    const r = await client.query("SELECT count(*)::int AS n FROM pgqueuer WHERE status = 'failed'")
    return r.rows[0].n
  },
}
