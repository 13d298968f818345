// aizk with PgQueuer's `balanced` durability (pgqueuer_log and pgqueuer_statistics unlogged;
// docs/deployment.md#durability) for the peer harness, beside the default (durable) adapter in one run:
//   ADAPTER_AIZK=$PWD/bench/peers-adapter.mjs ADAPTER_AIZK_BALANCED=$PWD/bench/peers-adapter-balanced.mjs \
//     SYSTEMS="aizk aizk-balanced graphile-worker" W2_graphile_worker=batched $PEERS/run-all.sh
import pg from 'pg'
import { setDurability } from '../dist/queue/durability.js'
import durable from './peers-adapter.mjs'

export default {
  ...durable,
  name: 'aizk-balanced',
  dbSuffix: 'aizk_balanced',
  async install(ctx) {
    await durable.install(ctx)
    const pool = new pg.Pool({ connectionString: ctx.connectionString, max: 1 })
    try {
      await setDurability(pool, 'balanced', { lockTimeoutMs: 10_000 })
    } finally {
      await pool.end()
    }
  },
}
