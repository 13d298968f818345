/**
 * Benchmark: the roster and the fan-out of 10,000 distinct scope sets.
 *   node --import tsx bench/roster-fanout.ts [sets] [rowsPerSet]
 * Uses AIZK_BENCH_DATABASE_URL, else AIZK_TEST_DATABASE_URL, else AIZK_DATABASE_URL (a server
 * where it may create and drop a scratch database). Prints times; asserts only correctness.
 */
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { migrate } from '../src/db/migrate.js'
import { JobRegistry } from '../src/jobs/registry.js'
import { ScopedScheduledJob } from '../src/jobs/scheduled-job.js'
import { fanOut } from '../src/scheduler/fan-out.js'
import { scopeRoster } from '../src/scope/roster.js'

class BenchPassJob extends ScopedScheduledJob {
  static override defaultCron = '* * * * *'
  async execute() {}
}

const SETS = Number(process.argv[2] ?? 10_000)
const ROWS_PER_SET = Number(process.argv[3] ?? 3)
const server = process.env.AIZK_BENCH_DATABASE_URL ?? process.env.AIZK_TEST_DATABASE_URL ?? process.env.AIZK_DATABASE_URL
if (!server) throw new Error('set AIZK_BENCH_DATABASE_URL (or AIZK_TEST_DATABASE_URL) to a server the benchmark may create a database on')

const withDb = (db: string) => {
  const u = new URL(server)
  u.pathname = `/${db}`
  return u.toString()
}
const identity = { systemUserId: '00000000-0000-4000-a000-000000000001', appRole: process.env.AIZK_APP_ROLE ?? 'aizk_app' }

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now()
  const out = await fn()
  return [out, performance.now() - t]
}

async function main(): Promise<void> {
  new JobRegistry().register(BenchPassJob)
  const name = `aizk_bench_${process.pid}`
  const admin = new pg.Client({ connectionString: withDb('postgres') })
  await admin.connect()
  await admin.query(`create database ${name}`)
  const pool = new pg.Pool({ connectionString: withDb(name), max: 4 })
  pool.on('error', () => {})
  try {
    const client = await pool.connect()
    await migrate(client, { appRole: identity.appRole })
    client.release()

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
    await pool.query("delete from pgqueuer where entrypoint = $1", [BenchPassJob.entrypoint])
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
    await admin.query(`drop database if exists ${name} with (force)`)
    await admin.end()
  }
}

await main()
