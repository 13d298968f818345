/**
 * aizk's global limit counts PgQueuer's picks, even one not yet committed when aizk counts, and
 * PgQueuer's own pick is held to it: never more than the limit picked at once, sampled; also
 * before any aizk worker runs, to the limit an earlier registration stored.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe } from 'node:test'
import pg from 'pg'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { pickJobs, planPick } from '../../src/queue/pick.js'
import type { TestDatabase } from '../support/db.js'
import { idsOf, pgqEnqueue } from '../support/interop/pgqueuer.js'
import { interopFile, it, runsOf } from '../support/interop/scenario.js'
import { waitFor } from '../support/wait-for.js'

const { scenario, aizkWorker, pgqWorker } = interopFile()

/** The most rows of `entrypoint` seen picked at once, sampling every ~20 ms until `done` holds. */
async function sampleMaxPicked(
  db: TestDatabase,
  entrypoint: string,
  done: () => Promise<boolean>,
  timeoutMs = 120_000,
): Promise<{ max: number; samples: number }> {
  let max = 0
  let samples = 0
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { rows } = await db.pool.query("select count(*)::int as n from pgqueuer where entrypoint = $1 and status = 'picked'", [entrypoint])
    max = Math.max(max, rows[0].n)
    samples++
    if (await done()) return { max, samples }
    if (Date.now() > deadline) throw new Error(`timed out sampling ${entrypoint} (max ${max} picked over ${samples} samples)`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

const queueEmpty = (db: TestDatabase) => async () => (await db.pool.query('select count(*)::int as n from pgqueuer')).rows[0].n === 0

describe('global limits beside PgQueuer workers', () => {
  it("aizk's limit counts PgQueuer's picks: it starts nothing while PgQueuer holds both slots", async () => {
    const db = await scenario()
    const py = pgqWorker(db, ['interop_limited'], { limit: 2, sleep: 4 })
    await py.queueManagerId
    const first = idsOf(await pgqEnqueue(db.url, 'interop_limited', [{ json: { ms: 500 } }, { json: { ms: 500 } }])) as string[]
    for (const id of first) await py.waitFor((e) => e.event === 'start' && String(e.id) === id, `PgQueuer start of ${id}`)
    await enqueueMany(
      db.pool,
      [1, 2, 3, 4].map(() => ({ entrypoint: 'interop_limited', payload: { ms: 500 } })),
    )
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
    const ids = (await enqueueMany(
      db.pool,
      [1, 2].map(() => ({ entrypoint: 'interop_limited', payload: {} })),
    )) as string[]
    const foreign = new pg.Client({ connectionString: db.url })
    await foreign.connect()
    try {
      // What PgQueuer's dequeue does, held open: the row is picked but not yet committed.
      await foreign.query('begin')
      await foreign.query("update pgqueuer set status = 'picked', queue_manager_id = $2, heartbeat = now() where id = $1", [ids[0], randomUUID()])
      const pick = pickJobs(db.pool, planPick(randomUUID(), [{ entrypoint: 'interop_limited', concurrencyLimit: 1 }]), 10, 0)
      await waitFor('the aizk pick to wait for the lock', async () => {
        const { rows } = await db.pool.query(
          "select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'",
        )
        return rows.length > 0
      })
      await foreign.query('commit')
      assert.deepEqual(await pick, [], 'the committed foreign pick fills the limit of 1')
    } finally {
      await foreign.end()
    }
  })

  it('an aizk worker and a PgQueuer worker on one entrypoint at limit 2 never hold more than 2 picked at once', async () => {
    const db = await scenario()
    const py = pgqWorker(db, ['interop_limited'], { limit: 2, sleep: 0.15, poll: 0.2 })
    await py.queueManagerId
    const aizk = aizkWorker(db, ['interop_limited'])
    await aizk.waitFor((e) => e.event === 'worker:started', 'the aizk worker to start')
    const half = Array.from({ length: 30 }, () => ({ ms: 150 }))
    await enqueueMany(
      db.pool,
      half.map((payload) => ({ entrypoint: 'interop_limited', payload })),
    )
    await pgqEnqueue(
      db.url,
      'interop_limited',
      half.map((json) => ({ json })),
    )
    const { max, samples } = await sampleMaxPicked(db, 'interop_limited', queueEmpty(db))
    assert.ok(max <= 2, `at most 2 picked at once, saw ${max} over ${samples} samples`)
    assert.ok((await runsOf(db.pool, 'interop_limited')).length > 0, 'the aizk worker ran some')
    assert.ok(
      py.events.some((e) => e.event === 'end'),
      'the PgQueuer worker ran some',
    )
    assert.equal(py.child.exitCode, null, 'the PgQueuer worker is still running')
  })

  it("PgQueuer's own pick is held to aizk's limit, even with no limit of its own; the rows it could not take run later", async () => {
    const db = await scenario()
    // An aizk worker bound to the entrypoint at limit 2, registered but not picking.
    await db.pool.query(
      `insert into aizk_worker (queue_manager_id, host, pid, version, entrypoints, limits)
       values (gen_random_uuid(), 'elsewhere', 1, 'test', '{interop_limited}', '{"interop_limited": 2}')`,
    )
    await pgqEnqueue(
      db.url,
      'interop_limited',
      Array.from({ length: 6 }, () => ({ json: { ms: 0 } })),
    )
    const py = pgqWorker(db, ['interop_limited'], { sleep: 0.3, poll: 0.2, batchSize: 10 })
    const { max } = await sampleMaxPicked(db, 'interop_limited', queueEmpty(db))
    assert.equal(max, 2, 'PgQueuer took 2 at a time, not its batch of 6')
    await waitFor('every job ran', () => py.events.filter((e) => e.event === 'end').length === 6)
    const { rows } = await db.pool.query("select count(*)::int as n from pgqueuer_log where status = 'picked'")
    assert.equal(rows[0].n, 6, 'one picked log row per job actually picked: none for a refused row')
    assert.equal(py.child.exitCode, null, 'the PgQueuer worker is still running')
  })

  for (const limit of [1, 2, 5]) {
    it(`a PgQueuer worker started first, with no aizk worker running, is held to the limit ${limit} an earlier aizk registration stored`, async (t) => {
      const db = await scenario()
      // An earlier deploy: an aizk worker registers the entrypoint at this limit, then exits cleanly.
      const earlier = aizkWorker(db, ['interop_limited'], { INTEROP_LIMIT: String(limit) })
      await earlier.waitFor((e) => e.event === 'worker:started', 'the aizk worker to start')
      earlier.kill('SIGTERM')
      assert.equal((await earlier.exited).code, 0)
      assert.equal((await db.pool.query('select 1 from aizk_worker')).rowCount, 0, 'no aizk worker registered')
      const py = pgqWorker(db, ['interop_limited'], { sleep: 0.1, poll: 0.2, batchSize: 10 })
      await py.queueManagerId
      await pgqEnqueue(
        db.url,
        'interop_limited',
        Array.from({ length: 30 }, () => ({ json: { ms: 0 } })),
      )
      const { max, samples } = await sampleMaxPicked(db, 'interop_limited', queueEmpty(db))
      t.diagnostic(`limit ${limit}: at most ${max} picked over ${samples} samples`)
      assert.ok(max <= limit, `at most ${limit} picked at once, saw ${max} over ${samples} samples`)
      assert.equal(py.events.filter((e) => e.event === 'end').length, 30, 'PgQueuer ran every job')
    })
  }
})
