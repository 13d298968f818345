/**
 * `aizk install` on a database the real PgQueuer 1.3.2 installed and used: its rows are kept, ids stay
 * BIGINT; dedupe keys PgQueuer left on a held and a live job stop the install before anything
 * changes, and --resolve-duplicate-keys resolves them.
 */
import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { runCli } from '../support/cli.js'
import type { TestDatabase } from '../support/db.js'
import { idsOf, pgq, pgqEnqueue } from '../support/interop/pgqueuer.js'
import { interopFile, it } from '../support/interop/scenario.js'
import { waitFor } from '../support/wait-for.js'

const { scenario, pgqWorker } = interopFile()

/** A PgQueuer worker that fails every job with on_failure="hold", until `ids` are held. */
async function holdWithPgQueuer(db: TestDatabase, entrypoint: string, ids: string[]) {
  const w = pgqWorker(db, [entrypoint], { fail: true, hold: true })
  await waitFor(`PgQueuer to hold ${ids.join(',')}`, async () => {
    const { rows } = await db.pool.query("select count(*)::int as n from pgqueuer where status = 'failed' and id = any($1::bigint[])", [ids])
    return rows[0].n === ids.length
  })
  await w.stop()
}

describe('adopting a PgQueuer 1.3.2 database', () => {
  it('keeps the rows PgQueuer made, and its BIGINT ids', async () => {
    const db = await scenario({ adopt: false })
    const [queued] = idsOf(await pgqEnqueue(db.url, 'py_job', [{ json: { a: 1 }, key: 'k1', priority: 5 }])) as string[]
    const res = await runCli(['install', '--json'], { env: { AIZK_DATABASE_URL: db.url } })
    assert.equal(res.code, 0, res.stderr)
    assert.equal(JSON.parse(res.stdout).adopted, true)
    const { rows } = await db.pool.query('select id::text, status, dedupe_key, priority from pgqueuer')
    assert.deepEqual(rows, [{ id: queued, status: 'queued', dedupe_key: 'k1', priority: 5 }])
    const types = await db.pool.query(
      "select table_name, data_type from information_schema.columns where column_name = 'id' and table_name in ('pgqueuer', 'pgqueuer_statistics', 'pgqueuer_schedules') order by 1",
    )
    assert.deepEqual(
      types.rows.map((r) => r.data_type),
      ['bigint', 'bigint', 'bigint'],
    )
  })

  it('names dedupe keys held by a failed and a live job, exits 6 and changes nothing; the flag resolves them', async () => {
    const db = await scenario({ adopt: false })
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
    assert.deepEqual(
      rows.map((r) => [r.id, r.status, r.dedupe_key]),
      [
        [held, 'failed', `dup-key#dup-of-${live}`],
        [live, 'queued', 'dup-key'],
      ],
    )
    assert.deepEqual(rows[0].headers.aizk.dedupeKeyConflict, { dedupeKey: 'dup-key', keptJob: live })
    // PgQueuer still reads the renamed row as a Job and can requeue it.
    await pgq(db.url, ['requeue', held])
    assert.equal((await db.pool.query('select status from pgqueuer where id = $1', [held])).rows[0].status, 'queued')
  })
})
