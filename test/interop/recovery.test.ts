/**
 * A PgQueuer worker heartbeating more slowly than aizk's timeout keeps its job (no double run);
 * a dead PgQueuer worker's pick is suspect in `aizk status`, `--check` and the metrics once it
 * has been silent past aizk's heartbeat timeout, and recovered by aizk once the foreign timeout
 * has passed.
 */
import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { runCli } from '../support/cli.js'
import { idsOf, pgqEnqueue } from '../support/interop/pgqueuer.js'
import { interopFile, it, runsOf } from '../support/interop/scenario.js'
import { waitFor } from '../support/wait-for.js'
import { freePort } from '../support/worker-process.js'

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
    const ran = (
      await db.pool.query(
        "select extract(epoch from max(created) - min(created))::float8 as s from pgqueuer_log where job_id = $1 and status in ('picked', 'successful')",
        [id],
      )
    ).rows[0].s
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
    assert.deepEqual(
      runs.map((r) => [r.job_id, r.side, r.attempts]),
      [[id, 'aizk', 1]],
    )
  })

  it("a killed PgQueuer worker's pick is suspect in status, --check and the metrics long before it is recovered", async () => {
    const db = await scenario()
    // PgQueuer heartbeats every second (half its timeout), well within aizk's 4 s.
    const py = pgqWorker(db, ['interop_shared'], { sleep: 120, heartbeatTimeout: 2 })
    const qm = await py.queueManagerId
    const [id] = idsOf(await pgqEnqueue(db.url, 'interop_shared', [{ json: { orphan: true } }])) as string[]
    await py.waitFor((e) => e.event === 'start' && String(e.id) === id, 'the PgQueuer start')
    const env = { AIZK_DATABASE_URL: db.url, AIZK_HEARTBEAT_TIMEOUT_SECONDS: '4', AIZK_HEARTBEAT_INTERVAL_SECONDS: '0.5' }
    const before = JSON.parse((await runCli(['status', '--json'], { env })).stdout)
    assert.equal(before.suspectPicks.count, 0, 'a live PgQueuer worker heartbeats it')
    await py.stop('SIGKILL')
    // An aizk worker bound elsewhere serves the metrics; the foreign timeout stays at its 600 s.
    const port = await freePort()
    const aizk = aizkWorker(db, ['interop_json'], { ...env, AIZK_WORKER_HEALTH_PORT: String(port) })
    await aizk.waitFor((e) => e.event === 'worker:started', 'the aizk worker')
    const doc = await waitFor('the pick to turn suspect', async () => {
      const d = JSON.parse((await runCli(['status', '--json'], { env })).stdout)
      return d.suspectPicks.count === 1 ? d : undefined
    })
    assert.equal(doc.suspectPicks.jobs[0].id, id)
    assert.equal(doc.stalePicks.count, 0)
    assert.deepEqual(
      doc.workers.foreign.map((f: { queueManagerId: string; suspect: boolean }) => [f.queueManagerId, f.suspect]),
      [[qm, true]],
    )
    const check = await runCli(['status', '--check'], { env })
    assert.equal(check.code, 7, check.stderr)
    assert.match(check.stderr, /1 job\(s\) picked by a worker aizk does not know .* probably dead/)
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
    assert.match(metrics, /^aizk_queue_suspect_picks 1$/m)
    assert.match(metrics, /^aizk_queue_stale_picks 0$/m)
    const { rows } = await db.pool.query('select status from pgqueuer where id = $1', [id])
    assert.equal(rows[0].status, 'picked', 'still waiting for the foreign timeout')
  })
})
