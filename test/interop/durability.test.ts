/**
 * `aizk durability` and PgQueuer's `pgq durability` name the same levels on the same tables: each
 * reads what the other set, and PgQueuer's worker runs and logs on a balanced queue.
 */
import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { runCli } from '../support/cli.js'
import type { TestDatabase } from '../support/db.js'
import { idsOf, pgq, pgqEnqueue, pgqOne } from '../support/interop/pgqueuer.js'
import { interopFile, it } from '../support/interop/scenario.js'
import { waitFor } from '../support/wait-for.js'

const { scenario, pgqWorker } = interopFile()

const cli = (db: TestDatabase, args: string[]) => runCli(args, { env: { AIZK_DATABASE_URL: db.url } })
const level = async (db: TestDatabase) => JSON.parse((await cli(db, ['durability', '--json'])).stdout).level

describe('durability levels shared with PgQueuer', () => {
  it("aizk reads the level PgQueuer set, and PgQueuer's worker logs on the level aizk set", async () => {
    const db = await scenario()
    assert.equal(await level(db), 'durable')
    await pgq(db.url, ['durability', 'balanced'])
    assert.equal(await level(db), 'balanced')
    await pgq(db.url, ['durability', 'volatile'])
    assert.equal(await level(db), 'volatile', 'aizk reads a level it will not set')
    const back = await cli(db, ['durability', 'durable', '--yes', '--json'])
    assert.equal(back.code, 0, back.stderr)
    assert.deepEqual(JSON.parse(back.stdout).statements, [
      'ALTER TABLE pgqueuer SET LOGGED',
      'ALTER TABLE pgqueuer_log SET LOGGED',
      'ALTER TABLE pgqueuer_statistics SET LOGGED',
      'ALTER TABLE pgqueuer_schedules SET LOGGED',
    ])

    const set = await cli(db, ['durability', 'balanced', '--yes'])
    assert.equal(set.code, 0, set.stderr)
    const ids = idsOf(
      await pgqEnqueue(
        db.url,
        'py_done',
        [1, 2].map((n) => ({ json: { n } })),
      ),
    ) as string[]
    const w = pgqWorker(db, ['py_done'])
    for (const id of ids) await w.waitFor((e) => e.event === 'end' && String(e.id) === id, `PgQueuer end of ${id}`)
    await waitFor('PgQueuer to log the completions', async () => {
      const { rows } = await db.pool.query("select count(*)::int as n from pgqueuer_log where status = 'successful'")
      return rows[0].n === 2
    })
    await w.stop()
    const status = await pgqOne(db.url, ['job-status', ...ids])
    assert.deepEqual(status.statuses, { [ids[0]]: 'successful', [ids[1]]: 'successful' })
  })
})
