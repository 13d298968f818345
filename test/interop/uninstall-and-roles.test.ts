/**
 * What the interop page says of two things an operator of a mixed deployment may try
 * (docs/pgqueuer-interop.md#running-a-mixed-deployment-safely): PgQueuer 1.3.2's own `uninstall`
 * is refused on a database aizk adopted and rolls back whole, and a PgQueuer worker connected as a
 * role granted the tables but neither the owner nor a row-security bypass sees no job and says
 * nothing (row security is on for pgqueuer), while the owner's runs it.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, describe } from 'node:test'
import { adminQuery } from '../support/db.js'
import { idsOf, pgq, pgqEnqueue, startPgqWorker } from '../support/interop/pgqueuer.js'
import { interopFile, it } from '../support/interop/scenario.js'
import { waitFor } from '../support/wait-for.js'

const { scenario, pgqWorker } = interopFile()
const role = `pgq_plain_${randomUUID().replaceAll('-', '').slice(0, 12)}`
after(async () => {
  await adminQuery(`DROP ROLE IF EXISTS ${role}`).catch(() => {})
})

describe("PgQueuer's uninstall and roles on an aizk database", () => {
  it("PgQueuer's uninstall is refused (aizk's count tables use pgqueuer_status) and rolls back: nothing is lost", async () => {
    const db = await scenario()
    const [id] = idsOf(await pgqEnqueue(db.url, 'py_job', [{ json: { keep: 1 } }])) as string[]
    await assert.rejects(pgq(db.url, ['uninstall']), /cannot drop type pgqueuer_status because other objects depend on it/)
    const { rows } = await db.pool.query("SELECT id::text, status::text FROM pgqueuer WHERE entrypoint = 'py_job'")
    assert.deepEqual(rows, [{ id, status: 'queued' }])
    const tables = await db.pool.query(
      "SELECT count(*)::int AS n FROM pg_class WHERE relname IN ('pgqueuer', 'pgqueuer_log', 'pgqueuer_statistics', 'pgqueuer_schedules') AND relkind = 'r'",
    )
    assert.equal(tables.rows[0].n, 4)
  })

  it('a PgQueuer worker as a plain role sees no job and says nothing; as the owner it runs it', async () => {
    const db = await scenario()
    await db.pool.query(`CREATE ROLE ${role} LOGIN`)
    await db.pool.query(`GRANT ALL ON ALL TABLES IN SCHEMA public TO ${role}; GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO ${role}`)
    const [id] = idsOf(await pgqEnqueue(db.url, 'py_job', [{ json: {} }])) as string[]
    const asRole = new URL(db.url)
    asRole.username = role
    const plain = startPgqWorker(asRole.toString(), ['py_job'], { poll: 0.2 })
    try {
      await plain.queueManagerId
      await new Promise((r) => setTimeout(r, 3000))
      assert.deepEqual(
        plain.events.filter((e) => e.event !== 'ready').map((e) => e.event),
        [],
        'the plain role ran nothing',
      )
      assert.equal(plain.child.exitCode, null, 'and kept running, reporting nothing')
      const { rows } = await db.pool.query('SELECT status::text FROM pgqueuer WHERE id = $1', [id])
      assert.deepEqual(rows, [{ status: 'queued' }])
    } finally {
      await plain.stop('SIGKILL')
    }
    pgqWorker(db, ['py_job'], { poll: 0.2 })
    await waitFor(`the owner's PgQueuer worker to run job ${id}`, async () => {
      const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM pgqueuer WHERE id = $1', [id])
      return rows[0].n === 0
    })
  })
})
