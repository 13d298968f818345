/**
 * `aizk install` on a database the real PgQueuer 1.3.2 installed and used: its rows are kept,
 * ids stay BIGINT; dedupe keys PgQueuer left on a held and a live job stop the install before
 * anything changes, and --resolve-duplicate-keys resolves them. Afterwards a held key blocks
 * PgQueuer's re-enqueue (aizk's rule, a deliberate difference) while its requeue_jobs works.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { enqueue } from '../../src/queue/enqueue.js'
import { runCli } from '../helpers/cli.js'
import type { TestDatabase } from '../helpers/db.js'
import { killAll, type SpawnedWorker } from '../worker/spawn-worker.js'
import { idsOf, pgq, pgqEnqueue, pgqOne, type PgqWorker, requirePgQueuer, startPgqWorker } from './support/pgqueuer.js'
import { eventually, pgqueuerDatabase, runsOf, startAizkWorker } from './support/scenario.js'

const dbs: TestDatabase[] = []
const aizkWorkers: SpawnedWorker[] = []
const pgqWorkers: PgqWorker[] = []
before(() => requirePgQueuer())
after(async () => {
  await killAll(aizkWorkers)
  await Promise.all(pgqWorkers.map((w) => w.stop('SIGKILL')))
  for (const db of dbs) await db.drop()
})
async function scenario(adopt: boolean) {
  const db = await pgqueuerDatabase({ adopt })
  dbs.push(db)
  return db
}

/** A PgQueuer worker that fails every job with on_failure="hold", until `ids` are held. */
async function holdWithPgQueuer(db: TestDatabase, entrypoint: string, ids: string[]) {
  const w = startPgqWorker(db.url, [entrypoint], { fail: true, hold: true })
  pgqWorkers.push(w)
  await eventually(`PgQueuer to hold ${ids.join(',')}`, async () => {
    const { rows } = await db.pool.query("select count(*)::int as n from pgqueuer where status = 'failed' and id = any($1::bigint[])", [ids])
    return rows[0].n === ids.length
  })
  await w.stop()
}

// The suite runs real processes one scenario after another: more than the 300 s default.
describe('adopting a PgQueuer 1.3.2 database', { timeout: 20 * 60_000 }, () => {
  it('keeps the rows PgQueuer made, and its BIGINT ids', async () => {
    const db = await scenario(false)
    const [queued] = idsOf(await pgqEnqueue(db.url, 'py_job', [{ json: { a: 1 }, key: 'k1', priority: 5 }])) as string[]
    const res = await runCli(['install', '--json'], { env: { AIZK_DATABASE_URL: db.url } })
    assert.equal(res.code, 0, res.stderr)
    assert.equal(JSON.parse(res.stdout).adopted, true)
    const { rows } = await db.pool.query('select id::text, status, dedupe_key, priority from pgqueuer')
    assert.deepEqual(rows, [{ id: queued, status: 'queued', dedupe_key: 'k1', priority: 5 }])
    const types = await db.pool.query(
      "select table_name, data_type from information_schema.columns where column_name = 'id' and table_name in ('pgqueuer', 'pgqueuer_statistics', 'pgqueuer_schedules') order by 1",
    )
    assert.deepEqual(types.rows.map((r) => r.data_type), ['bigint', 'bigint', 'bigint'])
  })

  it('names dedupe keys held by a failed and a live job, exits 6 and changes nothing; the flag resolves them', async () => {
    const db = await scenario(false)
    const [held] = idsOf(await pgqEnqueue(db.url, 'py_hold', [{ json: {}, key: 'dup-key' }])) as string[]
    await holdWithPgQueuer(db, 'py_hold', [held])
    // PgQueuer's own index covers queued and picked only: the same key is admitted again.
    const [live] = idsOf(await pgqEnqueue(db.url, 'py_hold', [{ json: {}, key: 'dup-key' }])) as string[]

    const refused = await runCli(['install'], { env: { AIZK_DATABASE_URL: db.url } })
    assert.equal(refused.code, 6, refused.stderr)
    assert.match(refused.stderr, /dup-key: job \d+ \(failed\), job \d+ \(queued\)/)
    assert.match(refused.stderr, new RegExp(`job ${held} \\(failed\\), job ${live} \\(queued\\)`))
    assert.match(refused.stderr, /--resolve-duplicate-keys/)
    const untouched = await db.pool.query("select to_regclass('aizk_schema_version') as v, to_regclass('aizk_worker') as w")
    assert.deepEqual(untouched.rows[0], { v: null, w: null }, 'nothing was applied')

    const resolved = await runCli(['install', '--resolve-duplicate-keys', '--json'], { env: { AIZK_DATABASE_URL: db.url } })
    assert.equal(resolved.code, 0, resolved.stderr)
    assert.deepEqual(JSON.parse(resolved.stdout).resolvedDuplicates, [
      { id: held, dedupeKey: 'dup-key', newDedupeKey: `dup-key#dup-of-${live}`, keptJob: live },
    ])
    const rows = (await db.pool.query('select id::text, status, dedupe_key, headers from pgqueuer order by id')).rows
    assert.deepEqual(rows.map((r) => [r.id, r.status, r.dedupe_key]), [
      [held, 'failed', `dup-key#dup-of-${live}`],
      [live, 'queued', 'dup-key'],
    ])
    assert.deepEqual(rows[0].headers.aizk.dedupeKeyConflict, { dedupeKey: 'dup-key', keptJob: live })
    // PgQueuer still reads the renamed row as a Job and can requeue it.
    await pgq(db.url, ['requeue', held])
    assert.equal((await db.pool.query('select status from pgqueuer where id = $1', [held])).rows[0].status, 'queued')
  })

  it("a held key blocks PgQueuer's re-enqueue (DuplicateJobError, or None with skip); requeue_jobs runs it again", async () => {
    const db = await scenario(true)
    const id = (await enqueue(db.pool, { entrypoint: 'interop_hold', payload: { first: true }, dedupeKey: 'held-key' })) as string
    const w = startAizkWorker(db, ['interop_hold'])
    aizkWorkers.push(w)
    await w.waitFor((e) => e.event === 'job:held' && e.jobId === id, 'the hold')
    await eventually('the hold to be written', async () => (await db.pool.query('select status from pgqueuer where id = $1', [id])).rows[0]?.status === 'failed')

    const raised = await pgqOne(db.url, ['enqueue', 'interop_hold', '--payload-hex', '7b7d', '--dedupe-key', 'held-key'])
    assert.equal(raised.event, 'duplicate')
    assert.equal(raised.error, 'DuplicateJobError')
    const skipped = await pgqOne(db.url, ['enqueue', 'interop_hold', '--payload-hex', '7b7d', '--dedupe-key', 'held-key', '--skip'])
    assert.deepEqual(skipped.ids, [null])

    await pgq(db.url, ['requeue', id])
    await eventually('aizk to run the requeued job again', async () => (await runsOf(db.pool, 'interop_hold')).length === 2)
    const runs = await runsOf(db.pool, 'interop_hold')
    assert.deepEqual(runs.map((r) => r.job_id), [id, id])
  })
})
