/**
 * A PgQueuer worker heartbeating more slowly than aizk's timeout keeps its job (no double run);
 * a dead PgQueuer worker's pick is recovered by aizk once the foreign timeout has passed.
 */
import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { idsOf, pgqEnqueue } from './support/pgqueuer.js'
import { interopFile, it, runsOf } from './support/scenario.js'
import { waitFor } from '../helpers/wait-for.js'

const { scenario, aizkWorker, pgqWorker } = interopFile()

describe('recovery beside PgQueuer workers', () => {
  it("a PgQueuer job whose heartbeat is older than aizk's timeout is not run twice", async () => {
    const db = await scenario()
    // PgQueuer heartbeats every 4 s (half its 8 s timeout); aizk's own timeout is 1.5 s.
    const py = pgqWorker(db, ['interop_shared'], { sleep: 7, heartbeatTimeout: 8 })
    await py.queueManagerId
    const [id] = idsOf(await pgqEnqueue(db.url, 'interop_shared', [{ json: { slow: true } }])) as string[]
    await py.waitFor((e) => e.event === 'start' && String(e.id) === id, 'the PgQueuer start')
    const aizk = aizkWorker(db, ['interop_shared'])
    await aizk.waitFor((e) => e.event === 'worker:started', 'the aizk worker')
    // While PgQueuer runs, the row's heartbeat grows older than 1.5 s several times over.
    await py.waitFor((e) => e.event === 'end' && String(e.id) === id, 'the PgQueuer end', 60_000)
    await waitFor('PgQueuer to log the completion', async () => {
      const { rows } = await db.pool.query("select 1 from pgqueuer_log where job_id = $1 and status = 'successful'", [id])
      return rows.length > 0
    })
    const ran = (await db.pool.query("select extract(epoch from max(created) - min(created))::float8 as s from pgqueuer_log where job_id = $1 and status in ('picked', 'successful')", [id])).rows[0].s
    assert.ok(ran > 5, `the job ran ${ran}s, long enough for aizk's 1.5 s timeout to pass between PgQueuer heartbeats`)
    assert.deepEqual(await runsOf(db.pool, 'interop_shared'), [], 'aizk never ran it')
    assert.equal(aizk.events.filter((e) => e.jobId === id).length, 0, 'aizk never picked it')
    assert.equal(py.events.filter((e) => e.event === 'start').length, 1, 'PgQueuer ran it once')
  })

  it("a dead PgQueuer worker's pick is recovered by aizk once the foreign timeout passed", async () => {
    const db = await scenario()
    const py = pgqWorker(db, ['interop_shared'], { sleep: 120, heartbeatTimeout: 60 })
    await py.queueManagerId
    const [id] = idsOf(await pgqEnqueue(db.url, 'interop_shared', [{ json: { orphan: true } }])) as string[]
    await py.waitFor((e) => e.event === 'start' && String(e.id) === id, 'the PgQueuer start')
    await py.stop('SIGKILL')
    const aizk = aizkWorker(db, ['interop_shared'], { AIZK_FOREIGN_HEARTBEAT_TIMEOUT_SECONDS: '3' })
    const recovered = await aizk.waitFor((e) => e.event === 'job:recovered' && e.jobId === id, 'the recovery', 60_000)
    assert.equal(recovered.attempts, 1)
    await aizk.waitFor((e) => e.event === 'job:completed' && e.jobId === id, 'the completion')
    const runs = await runsOf(db.pool, 'interop_shared')
    assert.deepEqual(runs.map((r) => [r.job_id, r.side, r.attempts]), [[id, 'aizk', 1]])
  })
})
