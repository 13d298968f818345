/**
 * aizk's global limit counts PgQueuer's picks, even one not yet committed when aizk counts.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { describe } from 'node:test'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { pickJobs, planPick } from '../../src/queue/pick.js'
import { idsOf, pgqEnqueue } from './support/pgqueuer.js'
import { interopFile, it, runsOf } from './support/scenario.js'
import { waitFor } from '../helpers/wait-for.js'

const { scenario, aizkWorker, pgqWorker } = interopFile()

describe('global limits beside PgQueuer workers', () => {
  it("aizk's limit counts PgQueuer's picks: it starts nothing while PgQueuer holds both slots", async () => {
    const db = await scenario()
    const py = pgqWorker(db, ['interop_limited'], { limit: 2, sleep: 4 })
    await py.queueManagerId
    const first = idsOf(await pgqEnqueue(db.url, 'interop_limited', [{ json: { ms: 500 } }, { json: { ms: 500 } }])) as string[]
    for (const id of first) await py.waitFor((e) => e.event === 'start' && String(e.id) === id, `PgQueuer start of ${id}`)
    await enqueueMany(db.pool, [1, 2, 3, 4].map(() => ({ entrypoint: 'interop_limited', payload: { ms: 500 } })))
    aizkWorker(db, ['interop_limited'])
    await waitFor('every job to run', async () => (await db.pool.query('select count(*)::int as n from pgqueuer')).rows[0].n === 0, 90_000)
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
      await waitFor('the aizk pick to wait for the lock', async () => {
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
