/**
 * `aizk prune` deletes PgQueuer's log rows past the retention, and PgQueuer reads the rest.
 */
import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { runCli } from '../support/cli.js'
import type { TestDatabase } from '../support/db.js'
import { idsOf, pgqEnqueue, pgqOne } from '../support/interop/pgqueuer.js'
import { interopFile, it } from '../support/interop/scenario.js'
import { waitFor } from '../support/wait-for.js'

const { scenario, pgqWorker } = interopFile()

const cli = (db: TestDatabase, args: string[]) => runCli(args, { env: { AIZK_DATABASE_URL: db.url } })

describe("aizk prune on PgQueuer's log", () => {
  it("aizk prune deletes PgQueuer's log rows past the retention; PgQueuer reads the rest", async () => {
    const db = await scenario()
    const ids = idsOf(
      await pgqEnqueue(
        db.url,
        'py_done',
        [1, 2, 3].map((n) => ({ json: { n } })),
      ),
    ) as string[]
    const w = pgqWorker(db, ['py_done'])
    for (const id of ids) await w.waitFor((e) => e.event === 'end' && String(e.id) === id, `PgQueuer end of ${id}`)
    await waitFor('PgQueuer to log the completions', async () => {
      const { rows } = await db.pool.query("select count(*)::int as n from pgqueuer_log where status = 'successful'")
      return rows[0].n === 3
    })
    await w.stop()
    const before = (await db.pool.query('select count(*)::int as n from pgqueuer_log')).rows[0].n
    assert.equal(before, 9, 'PgQueuer logs queued, picked and successful for each job')
    // Age the first job's rows past a one-day retention.
    await db.pool.query("update pgqueuer_log set created = now() - interval '2 days' where job_id = $1", [ids[0]])
    const pruned = await cli(db, ['prune', '--retention-days', '1', '--json'])
    assert.equal(pruned.code, 0, pruned.stderr)
    assert.equal(JSON.parse(pruned.stdout).deleted, 3)
    const left = await pgqOne(db.url, ['job-status', ...ids])
    assert.deepEqual(left.statuses, { [ids[1]]: 'successful', [ids[2]]: 'successful' })
  })
})
