/**
 * A rolling upgrade on one database (docs/deployment.md#upgrading): the previous release
 * (scripts/build-previous-release.sh) installs the schema and runs a worker under steady load;
 * this build's `aizk install` upgrades the schema mid-load; this build's worker starts beside the
 * old one; the old one keeps completing jobs until it is stopped. Every acknowledged job runs
 * exactly once and the limit of 2 is held throughout. The reverse order, this build's worker on
 * the schema the old install left, exits 4 with its hint.
 */
import assert from 'node:assert/strict'
import path from 'node:path'
import { describe, it } from 'node:test'
import { schemaState } from '../../src/db/migrate.js'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { runCli } from '../support/cli.js'
import { freshDatabases, type TestDatabase } from '../support/db.js'
import { previousRelease } from '../support/previous-release.js'
import { type EnqueueMany, samplePicked, startSteadyLoad } from '../support/steady-load.js'
import { waitFor } from '../support/wait-for.js'
import { FIXTURE_TABLES, fastWorkerEnv, killAll, spawnWorker, type WorkerProcess } from '../support/worker-process.js'

const release = previousRelease()
const skip = 'skip' in release ? release.skip : false
const freshDatabase = freshDatabases({ empty: true })
const workers: WorkerProcess[] = []
freshDatabase.beforeDrop(async () => {
  await killAll(workers)
})

/** A database the previous release's `aizk install` made, with the fixture jobs' tables. */
async function oldInstalledDb(): Promise<TestDatabase> {
  if ('skip' in release) throw new Error(release.skip)
  const db = await freshDatabase()
  const install = await runCli(['install'], { bin: release.bin, env: { AIZK_DATABASE_URL: db.url }, timeoutMs: 120_000 })
  assert.equal(install.code, 0, `aizk ${release.version} install: ${install.stderr}`)
  await db.pool.query(FIXTURE_TABLES)
  await db.pool.query("insert into test_counter (name) values ('limited')")
  return db
}

const count = async (db: TestDatabase, sql: string, params: unknown[] = []) => (await db.pool.query<{ n: number }>(sql, params)).rows[0].n
const runsBy = (db: TestDatabase, w: WorkerProcess, since = '-infinity') =>
  count(db, 'select count(*)::int n from test_runs where pid = $1 and at > $2::timestamptz', [w.child.pid, since])

describe('rolling upgrade from the previous release', { skip }, () => {
  it('the old worker runs beside the new one across the new install under load: 0 lost, 0 run twice, limit 2 held', async () => {
    if ('skip' in release) return
    const db = await oldInstalledDb()
    const before = await db.pool.connect().then(async (c) => schemaState(c, { appRole: 'aizk_app' }).finally(() => c.release()))
    const oldEnqueue = ((await import(path.join(release.root, 'dist', 'queue', 'enqueue.js'))) as { enqueueMany: EnqueueMany }).enqueueMany
    const start = (build?: { bin: string; root: string }, jobs?: string) => {
      const w = spawnWorker(
        fastWorkerEnv(db.url, jobs ? { AIZK_WORKER_JOB_MODULES: jobs } : {}),
        ['--entrypoint', 'test_record', '--entrypoint', 'test_limited'],
        build,
      )
      workers.push(w)
      return w
    }
    const old = start(release.build, release.jobs)
    await old.waitFor((e) => e.event === 'worker:started', `the aizk ${release.version} worker's start`)
    let tag = 0
    const batch = () => [
      ...Array.from({ length: 8 }, () => ({ entrypoint: 'test_record', payload: { tag: String(tag++) } })),
      ...Array.from({ length: 2 }, () => ({ entrypoint: 'test_limited', payload: { ms: 10 } })),
    ]
    const load = startSteadyLoad(db.pool, oldEnqueue, batch, 100)
    const sampler = samplePicked(db.pool, 'test_limited')
    let current: WorkerProcess | undefined
    try {
      await waitFor('the old worker to run 200 jobs', async () => (await runsBy(db, old)) >= 200, 120_000)

      const install = await runCli(['install', '--json'], { env: { AIZK_DATABASE_URL: db.url }, timeoutMs: 120_000 })
      assert.equal(install.code, 0, `this build's install under load: ${install.stderr}`)
      const installed = JSON.parse(install.stdout) as { applied: { name: string }[]; definitions: string[] }
      const installedAt = (await db.pool.query<{ at: string }>('select clock_timestamp()::text at')).rows[0].at
      const check = await runCli(['install', '--check'], { env: { AIZK_DATABASE_URL: db.url } })
      assert.equal(check.code, 0, `install --check after the install: ${check.stderr}`)
      load.use(enqueueMany)

      await waitFor('the old worker to run 100 jobs after the install', async () => (await runsBy(db, old, installedAt)) >= 100, 120_000)
      current = start()
      await current.waitFor((e) => e.event === 'worker:started', "this build's worker's start")
      await waitFor("this build's worker to run 100 jobs beside the old one", async () => (await runsBy(db, current!)) >= 100, 120_000)
      const oldAfterInstall = await runsBy(db, old, installedAt)

      assert.equal(await old.stop(), 0, `the old worker's drain: ${old.stderr()}`)
      const stoppedAt = (await db.pool.query<{ at: string }>('select clock_timestamp()::text at')).rows[0].at
      await waitFor("this build's worker to run 200 jobs alone", async () => (await runsBy(db, current!, stoppedAt)) >= 200, 120_000)
      await load.stop()
      await waitFor('the queue to drain', async () => (await count(db, "select count(*)::int n from pgqueuer where entrypoint like 'test_%'")) === 0, 120_000)
      await sampler.stop()
      assert.equal(await current.stop(), 0, `this build's worker's drain: ${current.stderr()}`)

      const records = load.acknowledged.get('test_record') ?? []
      const limited = load.acknowledged.get('test_limited') ?? []
      const runs = await db.pool.query<{ job_id: string; n: number }>('select job_id::text, count(*)::int n from test_runs group by job_id')
      const ranOnce = runs.rows.filter((r) => r.n === 1).length
      const ranTwice = runs.rows.filter((r) => r.n > 1).map((r) => r.job_id)
      const missing = records.filter((id) => !runs.rows.some((r) => r.job_id === id))
      assert.deepEqual(missing, [], 'acknowledged jobs that never ran')
      assert.deepEqual(ranTwice, [], 'jobs run more than once')
      assert.equal(ranOnce, records.length)
      const logs = await db.pool.query<{ job_id: string; successes: number }>(
        "select job_id::text, count(*) filter (where status = 'successful')::int successes from pgqueuer_log where job_id = any($1::bigint[]) group by job_id",
        [[...records, ...limited]],
      )
      assert.equal(logs.rows.filter((r) => r.successes === 1).length, records.length + limited.length, 'every job has exactly one successful log row')
      const counter = (await db.pool.query<{ done: number; max_running: number }>("select done, max_running from test_counter where name = 'limited'")).rows[0]
      assert.equal(counter.done, limited.length)
      assert.ok(counter.max_running <= 2, `${counter.max_running} limited handlers ran at once`)
      assert.ok(sampler.max() <= 2, `sampled ${sampler.max()} limited jobs picked at once`)
      assert.ok(oldAfterInstall >= 100, 'the old worker completed jobs after the install')
      assert.deepEqual([old.badLines, current.badLines], [[], []])
      console.log(
        `rolling upgrade from ${release.version}: ${records.length + limited.length} jobs (${limited.length} limited), the install applied ` +
          `${installed.applied.length} migrations (${installed.applied.map((m) => m.name).join(', ') || 'none'}) and ${installed.definitions.length} definitions ` +
          `(${before.pending.length} migrations and ${before.pendingDefinitions.length} definitions behind); the old worker ran ${oldAfterInstall} jobs after it; ` +
          `limit: at most ${counter.max_running} running, ${sampler.max()} picked in ${sampler.samples()} samples`,
      )
    } finally {
      await load.stop().catch(() => {})
      await sampler.stop()
    }
  })

  it("this build's worker on the schema the previous release installed exits 4 at once, telling to run aizk install", async (t) => {
    if ('skip' in release) return
    const db = await oldInstalledDb()
    const state = await db.pool.connect().then(async (c) => schemaState(c, { appRole: 'aizk_app' }).finally(() => c.release()))
    if (state.pending.length === 0 && state.pendingDefinitions.length === 0) {
      t.skip(`the schema has not changed since ${release.version}: this build's worker runs on it as it is`)
      return
    }
    const started = performance.now()
    const w = spawnWorker(fastWorkerEnv(db.url))
    workers.push(w)
    const { code } = await w.exited
    console.log(`this build's worker on aizk ${release.version}'s schema: exit ${code} after ${Math.round(performance.now() - started)} ms`)
    assert.equal(code, 4, w.stderr())
    assert.match(w.stderr(), /the aizk schema is behind/)
    assert.match(w.stderr(), /run `aizk install`/)
    assert.equal(await count(db, 'select count(*)::int n from aizk_worker'), 0, 'it registered no worker')
    const check = await runCli(['install', '--check', '--json'], { env: { AIZK_DATABASE_URL: db.url } })
    assert.equal(check.code, 4)
    assert.equal(JSON.parse(check.stdout).error.details.state, 'behind')
  })
})
