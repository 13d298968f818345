/**
 * Benchmark: the roster and the fan-out of 10,000 distinct scope sets.
 *   node --import tsx bench/roster-fanout.ts   (knobs BENCH_ROSTER_SETS, BENCH_ROSTER_ROWS_PER_SET)
 * A scratch database (bench/scratch-db.ts). Prints times; asserts only correctness.
 */
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { JobRegistry } from '../src/jobs/registry.js'
import { ScopedScheduledJob } from '../src/jobs/scheduled-job.js'
import { fanOut } from '../src/scheduler/fan-out.js'
import { scopeRoster } from '../src/scope/roster.js'
import { benchAppRole, num } from './knobs.js'
import { createScratchDb } from './scratch-db.js'

class BenchPassJob extends ScopedScheduledJob {
  static override defaultCron = '* * * * *'
  async execute() {}
}

const SETS = num('BENCH_ROSTER_SETS', 10_000)
const ROWS_PER_SET = num('BENCH_ROSTER_ROWS_PER_SET', 3)
const identity = { systemUserId: '00000000-0000-4000-a000-000000000001', appRole: benchAppRole() }

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now()
  const out = await fn()
  return [out, performance.now() - t]
}

async function main(): Promise<void> {
  new JobRegistry().register(BenchPassJob)
  const scratch = await createScratchDb(`aizk_bench_roster_${process.pid}`)
  const pool = new pg.Pool({ connectionString: scratch.url, max: 4 })
  pool.on('error', () => {})
  try {
    // Distinct sets of one to three random members, each stored on ROWS_PER_SET rows spread over
    // the three roster tables.
    const sets = Array.from({ length: SETS }, (_, i) => Array.from({ length: 1 + (i % 3) }, () => randomUUID()).sort())
    const [, seedMs] = await timed(async () => {
      for (let i = 0; i < sets.length; i += 2000) {
        const slice = sets.slice(i, i + 2000).map((s) => `{${s.join(',')}}`)
        for (let r = 0; r < ROWS_PER_SET; r++) {
          const table = ['document', 'session_item', 'artifact'][r % 3]
          const extra = table === 'artifact' ? ', content_id' : ''
          const value = table === 'artifact' ? `, md5(s || ${r})` : ''
          await pool.query(`insert into ${table} (scopes${extra}) select s::uuid[]${value} from unnest($1::text[]) s`, [slice])
        }
      }
      await pool.query('analyze')
    })

    const [roster, rosterMs] = await timed(() => scopeRoster(pool, identity))
    if (roster.length !== SETS) throw new Error(`roster has ${roster.length} sets, expected ${SETS}`)
    const [first, firstMs] = await timed(() => fanOut(BenchPassJob, pool, identity))
    if (first.enqueued !== SETS) throw new Error(`first tick enqueued ${first.enqueued}`)
    const [second, secondMs] = await timed(() => fanOut(BenchPassJob, pool, identity))
    if (second.enqueued !== 0 || second.alreadyQueued !== SETS) throw new Error(`second tick enqueued ${second.enqueued}`)
    await pool.query('delete from pgqueuer where entrypoint = $1', [BenchPassJob.entrypoint])
    const [, enqueueMs] = await timed(() => fanOut(BenchPassJob, pool, identity, roster))

    const rows = [
      ['seed', `${SETS * ROWS_PER_SET} rows`, seedMs],
      ['roster', `${roster.length} sets`, rosterMs],
      ['fan-out, first tick (roster + enqueue)', `${first.enqueued} enqueued`, firstMs],
      ['fan-out, second tick (all queued)', `${second.alreadyQueued} already queued`, secondMs],
      ['enqueue alone (roster given)', `${SETS} enqueued`, enqueueMs],
    ] as const
    console.log(`roster + fan-out of ${SETS} distinct scope sets (${ROWS_PER_SET} rows each)`)
    for (const [what, n, ms] of rows) console.log(`${what.padEnd(40)} ${n.padStart(24)} ${ms.toFixed(1).padStart(9)} ms`)
    console.log(`fan-out rate ${Math.round((SETS / firstMs) * 1000)} items/s`)
  } finally {
    await pool.end()
    await scratch.drop()
  }
}

await main()
