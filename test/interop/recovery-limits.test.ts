/**
 * Recovery and limits with PgQueuer workers in the mix:
 *  - a PgQueuer worker heartbeating more slowly than aizk's timeout keeps its job: no double run;
 *  - a dead PgQueuer worker's pick is recovered by aizk once the foreign timeout has passed;
 *  - aizk's global limit counts PgQueuer's picks, even one not yet committed when aizk counts.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { pickJobs, planPick } from '../../src/queue/pick.js'
import type { TestDatabase } from '../helpers/db.js'
import { killAll, type SpawnedWorker } from '../worker/spawn-worker.js'
import { idsOf, pgqEnqueue, type PgqWorker, requirePgQueuer, startPgqWorker } from './support/pgqueuer.js'
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
async function scenario() {
  const db = await pgqueuerDatabase()
  dbs.push(db)
  return db
}

// The suite runs real processes one scenario after another: more than the 300 s default.
describe('recovery and limits beside PgQueuer workers', { timeout: 20 * 60_000 }, () => {
  it("a PgQueuer job whose heartbeat is older than aizk's timeout is not run twice", async () => {
    const db = await scenario()
    // PgQueuer heartbeats every 4 s (half its 8 s timeout); aizk's own timeout is 1.5 s.
    const py = startPgqWorker(db.url, ['interop_shared'], { sleep: 7, heartbeatTimeout: 8 })
    pgqWorkers.push(py)
    await py.queueManagerId
    const [id] = idsOf(await pgqEnqueue(db.url, 'interop_shared', [{ json: { slow: true } }])) as string[]
    await py.waitFor((e) => e.event === 'start' && String(e.id) === id, 'the PgQueuer start')
    const aizk = startAizkWorker(db, ['interop_shared'])
    aizkWorkers.push(aizk)
    await aizk.waitFor((e) => e.event === 'worker:started', 'the aizk worker')
    // While PgQueuer runs, the row's heartbeat grows older than 1.5 s several times over.
    await py.waitFor((e) => e.event === 'end' && String(e.id) === id, 'the PgQueuer end', 60_000)
    await eventually('PgQueuer to log the completion', async () => {
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
    const py = startPgqWorker(db.url, ['interop_shared'], { sleep: 120, heartbeatTimeout: 60 })
    pgqWorkers.push(py)
    await py.queueManagerId
    const [id] = idsOf(await pgqEnqueue(db.url, 'interop_shared', [{ json: { orphan: true } }])) as string[]
    await py.waitFor((e) => e.event === 'start' && String(e.id) === id, 'the PgQueuer start')
    await py.stop('SIGKILL')
    const aizk = startAizkWorker(db, ['interop_shared'], { AIZK_FOREIGN_HEARTBEAT_TIMEOUT_SECONDS: '3' })
    aizkWorkers.push(aizk)
    const recovered = await aizk.waitFor((e) => e.event === 'job:recovered' && e.jobId === id, 'the recovery', 60_000)
    assert.equal(recovered.attempts, 1)
    await aizk.waitFor((e) => e.event === 'job:completed' && e.jobId === id, 'the completion')
    const runs = await runsOf(db.pool, 'interop_shared')
    assert.deepEqual(runs.map((r) => [r.job_id, r.side, r.attempts]), [[id, 'aizk', 1]])
  })

  it("aizk's limit counts PgQueuer's picks: it starts nothing while PgQueuer holds both slots", async () => {
    const db = await scenario()
    const py = startPgqWorker(db.url, ['interop_limited'], { limit: 2, sleep: 4 })
    pgqWorkers.push(py)
    await py.queueManagerId
    const first = idsOf(await pgqEnqueue(db.url, 'interop_limited', [{ json: { ms: 500 } }, { json: { ms: 500 } }])) as string[]
    for (const id of first) await py.waitFor((e) => e.event === 'start' && String(e.id) === id, `PgQueuer start of ${id}`)
    await enqueueMany(db.pool, [1, 2, 3, 4].map(() => ({ entrypoint: 'interop_limited', payload: { ms: 500 } })))
    const aizk = startAizkWorker(db, ['interop_limited'])
    aizkWorkers.push(aizk)
    await eventually('every job to run', async () => (await db.pool.query('select count(*)::int as n from pgqueuer')).rows[0].n === 0, 90_000)
    const firstEnd = Math.min(...py.events.filter((e) => e.event === 'end').map((e) => Number(e.at) * 1000))
    const aizkRuns = await runsOf(db.pool, 'interop_limited')
    for (const r of aizkRuns) {
      assert.ok(r.started.getTime() >= firstEnd, `aizk started job ${r.job_id} only after PgQueuer freed a slot`)
    }
  })

  it('an aizk pick waits for an uncommitted foreign pick of a limited entrypoint and counts it', async () => {
    const db = await scenario()
    const ids = (await enqueueMany(db.pool, [1, 2].map(() => ({ entrypoint: 'interop_limited', payload: {} })))) as string[]
    const foreign = new pg.Client({ connectionString: db.url })
    await foreign.connect()
    try {
      // What PgQueuer's dequeue does, held open: the row is picked but not yet committed.
      await foreign.query('begin')
      await foreign.query("update pgqueuer set status = 'picked', queue_manager_id = $2, heartbeat = now() where id = $1", [ids[0], randomUUID()])
      const pick = pickJobs(db.pool, planPick(randomUUID(), [{ entrypoint: 'interop_limited', concurrencyLimit: 1 }]), 10, 0)
      await eventually('the aizk pick to wait for the lock', async () => {
        const { rows } = await db.pool.query("select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'")
        return rows.length > 0
      })
      await foreign.query('commit')
      assert.deepEqual(await pick, [], 'the committed foreign pick fills the limit of 1')
    } finally {
      await foreign.end()
    }
  })
})
