/**
 * aizk behind PgBouncer with pool_mode=transaction (docs/deployment.md#pgbouncer): Debian's
 * PgBouncer in front of the test server, real worker processes and commands on its URL. With
 * AIZK_DATABASE_POOL_MODE=transaction no statement is named (a named one prepared on one server
 * connection is missing on the next), LISTEN goes to AIZK_DIRECT_DATABASE_URL or nowhere (the
 * picks poll), and install needs the direct URL. Skipped, with the reason, when PgBouncer cannot
 * be obtained (scripts/fetch-pgbouncer.sh); .ci/run requires it.
 */
import assert from 'node:assert/strict'
import { afterEach, before, describe, it } from 'node:test'
import pg from 'pg'
import { createPool } from '../../src/db/connect.js'
import { openDatabase } from '../../src/db/database.js'
import { enqueue, enqueueMany } from '../../src/queue/enqueue.js'
import { User } from '../../src/scope/user.js'
import { parseSettings } from '../../src/settings.js'
import { A, B, identity } from '../support/app-login.js'
import { runCli } from '../support/cli.js'
import { baseUrl, testDatabase } from '../support/db.js'
import { type PgBouncer, pgbouncerBinary, startPgBouncer } from '../support/pgbouncer.js'
import { waitFor } from '../support/wait-for.js'
import { isEvent, spawnWorker, type WorkerProcess, workerEnv } from '../support/worker-process.js'

const POOL = 3
const binary = pgbouncerBinary()

describe('aizk through PgBouncer (transaction pooling)', { skip: 'skip' in binary ? binary.skip : false }, () => {
  const db = testDatabase()
  let bouncer: PgBouncer
  let pooledUrl: string
  const workers: WorkerProcess[] = []
  const pooledEnv = (extra: Record<string, string> = {}) => ({ AIZK_DATABASE_URL: pooledUrl, AIZK_DATABASE_POOL_MODE: 'transaction', ...extra })

  before(async () => {
    await db.pool.query(
      'create table test_runs (id bigserial primary key, job_id bigint, entrypoint text, attempts int, pid int, note text, at timestamptz default now())',
    )
    bouncer = await startPgBouncer((binary as { path: string }).path, { server: baseUrl(), poolSize: POOL })
    pooledUrl = bouncer.url(db.name)
  })
  afterEach(async () => {
    for (const w of workers.splice(0)) await w.kill()
  })
  db.beforeDrop(async () => {
    await bouncer?.stop()
  })

  it('loses a named statement between transactions on plain node-pg, and never with the names dropped', async () => {
    const holder = new pg.Client({ connectionString: pooledUrl })
    const named = new pg.Client({ connectionString: pooledUrl })
    const unnamed = createPool(pooledUrl, { max: 1, namedStatements: false })
    await holder.connect()
    await named.connect()
    try {
      const query = { name: 'aizk_test_named', text: 'SELECT $1::int AS n', values: [1] }
      await named.query(query)
      await unnamed.query(query)
      // The server connection both just used is held by another client's open transaction: the
      // next transaction of each gets another server connection.
      await holder.query('BEGIN')
      await holder.query('SELECT 1')
      await assert.rejects(named.query(query), /prepared statement "aizk_test_named" does not exist/)
      assert.deepEqual((await unnamed.query(query)).rows, [{ n: 1 }])
      await holder.query('COMMIT')
    } finally {
      await holder.end()
      await named.end()
      await unnamed.end()
    }
  })

  it('enqueues through it and drains with worker processes on it: every job runs once, server connections stay within the pool', async () => {
    const entry = { AIZK_WORKER_ENTRYPOINTS: 'test_record', AIZK_QUEUE_BATCH_SIZE: '16', AIZK_QUEUE_CONCURRENT_TASKS: '4' }
    // Two workers LISTEN on PostgreSQL itself, the third polls only.
    const listens: Record<string, string>[] = [{ AIZK_DIRECT_DATABASE_URL: db.url }, { AIZK_DIRECT_DATABASE_URL: db.url }, {}]
    for (const extra of listens) {
      workers.push(spawnWorker({ ...workerEnv(pooledUrl), ...pooledEnv({ ...entry, ...extra }) }))
    }
    await Promise.all(workers.map((w) => w.waitFor(isEvent('worker:started'), 'worker started through PgBouncer')))

    let maxServers = 0
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        const mine = (await bouncer.pools()).find((p) => p.database === db.name)
        maxServers = Math.max(maxServers, mine?.servers ?? 0, await bouncer.servers(db.name))
        await new Promise((r) => setTimeout(r, 20))
      }
    })().catch((err) => assert.fail(`reading PgBouncer's pools: ${err}`))

    const ids: string[] = []
    try {
      const app = await openDatabase(parseSettings(pooledEnv()), { poolSize: 8 })
      try {
        ids.push(
          ...((await Promise.all(
            Array.from({ length: 40 }, (_, i) => enqueue(app.pool, { entrypoint: 'test_record', payload: { tag: `one ${i}` } })),
          )) as string[]),
        )
        for (let b = 0; b < 4; b++) {
          ids.push(
            ...((await enqueueMany(
              app.pool,
              Array.from({ length: 140 }, (_, i) => ({ entrypoint: 'test_record', payload: { tag: `many ${b}.${i}` } })),
            )) as string[]),
          )
        }
      } finally {
        await app.close()
      }
      await waitFor(
        'the queue drained through PgBouncer',
        async () => (await db.pool.query('select count(*)::int as n from pgqueuer')).rows[0].n === 0,
        120_000,
      )
    } finally {
      sampling = false
      await sampler
    }
    const runs = await db.pool.query<{ job_id: string; n: number }>('select job_id::text, count(*)::int as n from test_runs group by 1')
    assert.deepEqual(
      runs.rows.filter((r) => r.n !== 1),
      [],
      'no job ran twice',
    )
    assert.deepEqual(new Set(runs.rows.map((r) => r.job_id)), new Set(ids), 'no job lost')
    const log = await db.pool.query<{ n: number; distinct: number }>(
      "select count(*)::int as n, count(distinct job_id)::int as distinct from pgqueuer_log where status = 'successful'",
    )
    assert.deepEqual(log.rows[0], { n: ids.length, distinct: ids.length })
    assert.ok(maxServers >= 1, 'the sampler saw PgBouncer use server connections')
    assert.ok(maxServers <= POOL, `PgBouncer held ${maxServers} server connections, over its pool of ${POOL}`)
    const handled = workers.slice(0, 2).map((w) => w.events.filter(isEvent('job:completed')).length)
    assert.ok(
      handled.every((n) => n > 0),
      `both listening workers ran jobs: ${handled.join(' / ')}`,
    )
    for (const w of workers)
      assert.deepEqual(
        w.events.filter((e) => e.event === 'worker:error' || e.event === 'db:lost'),
        [],
        w.stderr(),
      )

    // The two listeners may drain everything before the poller's next look: with them stopped,
    // jobs enqueued now reach the polling worker through its polls alone.
    await Promise.all(workers.slice(0, 2).map((w) => w.stop()))
    const poller = workers[2]
    const before = poller.events.filter(isEvent('job:completed')).length
    const late = await db.pool.query<{ id: string }>(
      "insert into pgqueuer (priority, entrypoint, payload, status) select 0, 'test_record', convert_to('{\"tag\":\"late\"}', 'UTF8'), 'queued' from generate_series(1, 20) returning id::text",
    )
    await waitFor('the polling worker ran the late jobs', async () => (await db.pool.query('select count(*)::int as n from pgqueuer')).rows[0].n === 0, 60_000)
    assert.equal(poller.events.filter(isEvent('job:completed')).length - before, late.rows.length, 'the polling worker ran every late job')
  })

  it("keeps the tenant boundary through it: A's scoped transaction reads none of B's rows", async () => {
    const app = await openDatabase(parseSettings(pooledEnv()), { poolSize: 2 })
    const as = (scopes: string[]) => User.system(scopes, identity)
    const count = (scopes: string[]) =>
      as(scopes).transaction(
        app.pool,
        async (c) => (await c.query<{ n: number }>("select count(*)::int as n from document where title = 'B private'")).rows[0].n,
      )
    try {
      await as([B]).transaction(app.pool, (c) => c.query("insert into document (scopes, title) values ($1::uuid[], 'B private')", [[B]]))
      assert.equal(await count([A]), 0)
      assert.equal(await count([B]), 1)
    } finally {
      await app.close()
    }
  })

  it('runs the commands through it: status and enqueue', async () => {
    const enq = await runCli(['enqueue', 'test_record', '--force', '--json'], { env: pooledEnv() })
    assert.equal(enq.code, 0, enq.stderr)
    const status = await runCli(['status', '--json'], { env: pooledEnv() })
    assert.equal(status.code, 0, status.stderr)
    assert.equal(JSON.parse(status.stdout).totals.queued, 1)
  })

  it('installs on the direct URL, and refuses behind the pooler without one (exit 3)', async () => {
    const refused = await runCli(['install'], { env: pooledEnv() })
    assert.equal(refused.code, 3, refused.stderr)
    assert.match(refused.stderr, /AIZK_DIRECT_DATABASE_URL/)
    const installed = await runCli(['install', '--json'], { env: pooledEnv({ AIZK_DIRECT_DATABASE_URL: db.url }) })
    assert.equal(installed.code, 0, installed.stderr)
    assert.deepEqual(JSON.parse(installed.stdout).applied, [])
  })
})
