import assert from 'node:assert/strict'
import { beforeEach, describe, it } from 'node:test'
import pg from 'pg'
import { heartbeat } from '../../src/db/sql/aizk-worker.js'
import { compactCounts, compactThroughput, readCounts } from '../../src/queue/counts.js'
import { queueStats, type StatsOptions } from '../../src/queue/stats.js'
import { cronPeriodSeconds, toCronParserExpression } from '../../src/queue/stats-schedules.js'
import { workerState } from '../../src/queue/stats-workers.js'
import { insertHeld, insertLog, insertQueued } from '../support/commands/queue-rows.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase()
const opts: StatsOptions = { heartbeatTimeoutSeconds: 30, heldThreshold: 0 }

beforeEach(async () => {
  await db.pool.query('TRUNCATE pgqueuer, pgqueuer_log, aizk_worker, pgqueuer_schedules, aizk_throughput')
})

describe('queue stats', () => {
  it('counts by entrypoint, priority and status are exact, and compaction keeps them so', async () => {
    await insertQueued(db.pool, 'ep_a', 30, { priority: 50 })
    await insertQueued(db.pool, 'ep_a', 5, { priority: 10 })
    await insertQueued(db.pool, 'ep_b', 7)
    await insertHeld(db.pool, 'ep_b', 2)
    await db.pool.query(
      `UPDATE pgqueuer SET status = 'picked', queue_manager_id = gen_random_uuid() WHERE id IN (SELECT id FROM pgqueuer WHERE entrypoint = 'ep_a' ORDER BY id LIMIT 4)`,
    )
    const s = await queueStats(db.pool, { ...opts, jobInfo: (ep) => (ep === 'ep_a' ? { concurrencyLimit: 4 } : undefined) })
    assert.deepEqual(s.totals, { queued: 38, picked: 4, held: 2 })
    const a = s.entrypoints.find((e) => e.entrypoint === 'ep_a')!
    assert.deepEqual([a.queued, a.picked, a.held, a.priorities, a.concurrencyLimit], [31, 4, 0, [50, 10], 4])
    const b = s.entrypoints.find((e) => e.entrypoint === 'ep_b')!
    assert.deepEqual([b.queued, b.held, b.concurrencyLimit], [7, 2, null])
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM aizk_queue_count_delta')
    assert.equal(rows[0].n, 0, 'status folded the deltas')
    assert.deepEqual(
      s.groups.find((g) => g.entrypoint === 'ep_a' && g.priority === 10),
      { entrypoint: 'ep_a', priority: 10, queued: 5, picked: 0, held: 0 },
    )
  })

  it('compaction under concurrent writers loses nothing', async () => {
    let stop = false
    const writers = [0, 1, 2].map(async (w) => {
      let n = 0
      while (!stop || n < 20) {
        await insertQueued(db.pool, `ep_w${w}`, 3)
        await db.pool.query(`DELETE FROM pgqueuer WHERE id = (SELECT id FROM pgqueuer WHERE entrypoint = $1 ORDER BY id LIMIT 1)`, [`ep_w${w}`])
        n++
      }
    })
    let compactions = 0
    while (compactions < 30) {
      const [x, y] = await Promise.all([compactCounts(db.pool), compactCounts(db.pool)])
      if (x !== null) compactions++
      if (y !== null) compactions++
    }
    stop = true
    await Promise.all(writers)
    await compactCounts(db.pool)
    const counted = await readCounts(db.pool)
    const { rows } = await db.pool.query(`SELECT entrypoint, count(*)::int AS n FROM pgqueuer GROUP BY 1 ORDER BY 1`)
    assert.deepEqual(
      counted.map((c) => [c.entrypoint, c.n]),
      rows.map((r) => [r.entrypoint, r.n]),
    )
  })

  it('oldest queued age comes from the earliest ready row; future rows show when they come due', async () => {
    await insertQueued(db.pool, 'ep_old', 3, { executeAfter: new Date(Date.now() - 3600_000).toISOString() })
    await insertQueued(db.pool, 'ep_old', 3)
    const later = new Date(Date.now() + 7200_000)
    await insertQueued(db.pool, 'ep_later', 2, { executeAfter: later.toISOString() })
    const s = await queueStats(db.pool, opts)
    const old = s.entrypoints.find((e) => e.entrypoint === 'ep_old')!
    assert.ok(old.oldestQueuedAgeSeconds! >= 3599 && old.oldestQueuedAgeSeconds! < 3700, String(old.oldestQueuedAgeSeconds))
    const l = s.entrypoints.find((e) => e.entrypoint === 'ep_later')!
    assert.equal(l.oldestQueuedAgeSeconds, 0)
    assert.equal(new Date(l.nextScheduledAt!).getTime(), later.getTime())
  })

  it('held jobs carry their cycles and last error (headers first, else the failed log row)', async () => {
    const [fromHeader] = await insertHeld(db.pool, 'ep_h', 1, { cycles: 2, lastError: { type: 'TypeError', message: 'bad thing' } })
    const [fromLog] = await insertHeld(db.pool, 'ep_h', 1)
    await db.pool.query(
      `INSERT INTO pgqueuer_log (job_id, status, priority, entrypoint, traceback)
       VALUES ($1, 'failed', 0, 'ep_h', '{"job_id": 1, "exception_type": "ValueError", "exception_message": "from python", "traceback": "..."}')`,
      [fromLog],
    )
    const s = await queueStats(db.pool, { ...opts, heldThreshold: 5 })
    assert.equal(s.held.count, 2)
    const byId = new Map(s.held.jobs.map((j) => [j.id, j]))
    assert.equal(byId.get(fromHeader)!.lastError, 'TypeError: bad thing')
    assert.equal(byId.get(fromHeader)!.cycles, 2)
    assert.equal(byId.get(fromLog)!.lastError, 'ValueError: from python')
    assert.equal(s.health.healthy, true, 'under the threshold')
    const strict = await queueStats(db.pool, opts)
    assert.deepEqual(
      strict.health.problems.map((p) => p.code),
      ['held_over_threshold'],
    )
  })

  it('workers alive or gone, stale picks, overdue crons', async () => {
    await db.pool.query(
      `INSERT INTO aizk_worker (queue_manager_id, host, pid, version, entrypoints, heartbeat) VALUES
         ('11111111-1111-4111-8111-111111111111', 'alive-host', 10, '0.1.0', '{ep_a}', now()),
         ('22222222-2222-4222-8222-222222222222', 'dead-host', 20, '0.1.0', '{ep_a}', now() - interval '5 minutes')`,
    )
    await insertQueued(db.pool, 'ep_a', 3)
    await db.pool.query(
      `UPDATE pgqueuer SET status = 'picked', queue_manager_id = '22222222-2222-4222-8222-222222222222', heartbeat = now() - interval '2 minutes' WHERE id = (SELECT min(id) FROM pgqueuer)`,
    )
    await db.pool.query(
      `UPDATE pgqueuer SET status = 'picked', queue_manager_id = '11111111-1111-4111-8111-111111111111' WHERE id = (SELECT max(id) FROM pgqueuer)`,
    )
    await db.pool.query(
      `INSERT INTO pgqueuer_schedules (expression, entrypoint, next_run, last_run, created) VALUES
         ('* * * * *', 'aizk_cron_late', now() - interval '2 minutes', now() - interval '3 minutes', now() - interval '1 day'),
         ('* * * * *', 'aizk_cron_off', now() - interval '2 minutes', now() - interval '3 minutes', now() - interval '1 day'),
         ('0 4 * * 0', 'aizk_cron_weekly', now() + interval '1 day', now() - interval '1 day', now() - interval '30 days')`,
    )
    const s = await queueStats(db.pool, { ...opts, scheduleEnabled: (ep) => (ep === 'aizk_cron_off' ? false : undefined) })
    assert.equal(s.workers.total, 2)
    assert.equal(s.workers.alive, 1)
    const alive = s.workers.list.find((w) => w.host === 'alive-host')!
    assert.deepEqual([alive.alive, alive.picked], [true, 1])
    assert.equal(s.stalePicks.count, 1)
    assert.equal(s.stalePicks.jobs[0].queueManagerId, '22222222-2222-4222-8222-222222222222')
    const late = s.schedules.find((x) => x.entrypoint === 'aizk_cron_late')!
    assert.deepEqual([late.overdue, late.periodSeconds], [true, 60])
    assert.equal(s.schedules.find((x) => x.entrypoint === 'aizk_cron_weekly')!.overdue, false)
    assert.deepEqual(s.health.problems.map((p) => p.code).sort(), ['cron_overdue', 'stale_picks'])
    assert.match(s.health.problems.find((p) => p.code === 'cron_overdue')!.message, /aizk_cron_late/)
  })

  it("a live worker whose heartbeat says its handlers' statements are stuck is unhealthy, named; a gone one is judged by its picks", async () => {
    const stuck = '33333333-3333-4333-8333-333333333333'
    const gone = '44444444-4444-4444-8444-444444444444'
    await db.pool.query(
      `INSERT INTO aizk_worker (queue_manager_id, host, pid, version, entrypoints, heartbeat) VALUES
         ('${stuck}', 'stuck-host', 30, '0.1.0', '{ep_a}', now()),
         ('${gone}', 'gone-host', 40, '0.1.0', '{ep_a}', now() - interval '5 minutes')`,
    )
    await db.pool.query(`UPDATE aizk_worker SET stuck_calls = 2, stuck_since = now() - interval '10 minutes' WHERE queue_manager_id = '${gone}'`)
    assert.equal((await queueStats(db.pool, opts)).health.healthy, true, 'no worker says it is stuck')
    await heartbeat(db.pool, stuck, [], [], 3)
    const first = (await db.pool.query<{ stuck_since: Date }>('SELECT stuck_since FROM aizk_worker WHERE queue_manager_id = $1', [stuck])).rows[0].stuck_since
    await new Promise((resolve) => setTimeout(resolve, 20))
    await heartbeat(db.pool, stuck, [], [], 4)
    const s = await queueStats(db.pool, opts)
    const w = s.workers.list.find((x) => x.queueManagerId === stuck)!
    assert.equal(w.stuckCalls, 4)
    assert.ok(w.stuckSince, 'since its first heartbeat that said so')
    assert.equal(workerState(w), 'stuck (4)')
    assert.equal(workerState(s.workers.list.find((x) => x.queueManagerId === gone)!), 'gone')
    assert.deepEqual(
      s.health.problems.map((p) => p.code),
      ['stuck_handlers'],
      'the gone worker is not judged by what it last said',
    )
    assert.match(s.health.problems[0].message, new RegExp(`worker stuck-host pid 30 \\(${stuck}\\) has 4 handler statement\\(s\\) stuck`))
    assert.equal(first.toISOString(), w.stuckSince, 'a later heartbeat that still says so keeps the first time')
    await heartbeat(db.pool, stuck, [], [], 0)
    const healed = await queueStats(db.pool, opts)
    assert.equal(healed.health.healthy, true, healed.health.problems.map((p) => p.message).join('; '))
    const row = (await db.pool.query('SELECT stuck_calls, stuck_since FROM aizk_worker WHERE queue_manager_id = $1', [stuck])).rows[0]
    assert.deepEqual(row, { stuck_calls: 0, stuck_since: null })
  })

  it('foreign queue managers are the unregistered ones holding picks; stale picks are counted up to the cap', async () => {
    const mine = '11111111-1111-4111-8111-111111111111'
    const foreignA = '0aaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'
    const foreignB = 'ffffffff-ffff-4fff-8fff-ffffffffffff'
    const heldOnly = '55555555-5555-4555-8555-555555555555'
    await db.pool.query(`INSERT INTO aizk_worker (queue_manager_id, host, pid, version, entrypoints) VALUES ('${mine}', 'h', 1, '0', '{ep_a}')`)
    await insertQueued(db.pool, 'ep_a', 1200)
    await insertQueued(db.pool, 'ep_b', 3)
    await insertHeld(db.pool, 'ep_b', 1)
    const pick = (qm: string, ep: string, n: number, age = '0 seconds') =>
      db.pool.query(
        `UPDATE pgqueuer SET status = 'picked', queue_manager_id = $1, heartbeat = now() - $4::interval
          WHERE id IN (SELECT id FROM pgqueuer WHERE entrypoint = $2 AND status = 'queued' ORDER BY id LIMIT $3)`,
        [qm, ep, n, age],
      )
    await pick(mine, 'ep_a', 1100, '5 minutes')
    await pick(foreignA, 'ep_b', 1)
    await pick(foreignA, 'ep_a', 2)
    await pick(foreignB, 'ep_b', 1)
    await db.pool.query(`UPDATE pgqueuer SET queue_manager_id = $1 WHERE status = 'failed'`, [heldOnly])
    const s = await queueStats(db.pool, opts)
    assert.deepEqual(
      s.workers.foreign.map((w) => [w.queueManagerId, w.entrypoints, w.picked]),
      [
        [foreignA, ['ep_a', 'ep_b'], 3],
        [foreignB, ['ep_b'], 1],
      ],
    )
    assert.equal(s.workers.list.find((w) => w.queueManagerId === mine)?.picked, 1000, 'a worker holding more than PICKED_CAP shows the cap')
    assert.equal(s.stalePicks.count, 1000, '1,100 stale picks counted up to PICKED_CAP')
    assert.equal(s.stalePicks.jobs.length, 20)
  })

  it('throughput per second and per minute from finished jobs; the log size from the catalogue', async () => {
    await db.pool.query(
      `INSERT INTO pgqueuer_log (created, job_id, status, priority, entrypoint)
       SELECT now() - interval '3 seconds', g, 'successful', 0, 'ep_t' FROM generate_series(1, 50) g`,
    )
    await db.pool.query(
      `INSERT INTO pgqueuer_log (created, job_id, status, priority, entrypoint)
       SELECT now() - interval '5 minutes', g, 'failed', 0, 'ep_t' FROM generate_series(1, 20) g`,
    )
    await compactThroughput(db.pool)
    const s = await queueStats(db.pool, opts)
    assert.equal(s.throughput.lastMinute, 50)
    assert.equal(s.throughput.perSecondNow, 5)
    assert.equal(s.throughput.perMinute.length, 15)
    assert.equal(
      s.throughput.perMinute.reduce((a, b) => a + b, 0),
      70,
    )
    assert.ok(s.log.bytes > 0)
  })

  it('throughput compaction folds a second into one row per entrypoint and status, and trims old seconds', async () => {
    for (let i = 0; i < 3; i++) {
      await db.pool.query(
        `INSERT INTO pgqueuer_log (created, job_id, status, priority, entrypoint) SELECT date_trunc('second', now()) - interval '30 seconds', g, 'successful', 0, 'ep_f' FROM generate_series(1, 4) g`,
      )
    }
    await db.pool.query(
      `INSERT INTO pgqueuer_log (created, job_id, status, priority, entrypoint) VALUES (now() - interval '2 hours', 1, 'successful', 0, 'ep_f')`,
    )
    await compactThroughput(db.pool)
    const { rows } = await db.pool.query(`SELECT n::int, second < now() - interval '1 hour' AS old FROM aizk_throughput WHERE entrypoint = 'ep_f'`)
    assert.deepEqual(rows, [{ n: 12, old: false }])
  })

  it('a refresh on a large queue scans neither pgqueuer nor pgqueuer_log', async () => {
    await insertQueued(db.pool, 'ep_big', 60000)
    await insertQueued(db.pool, 'ep_big2', 20000, { executeAfter: new Date(Date.now() + 86400_000).toISOString() })
    await insertHeld(db.pool, 'ep_big', 500)
    await insertLog(db.pool, 60000, 1)
    await db.pool.query('ANALYZE pgqueuer; ANALYZE pgqueuer_log')
    const one = new pg.Pool({ connectionString: db.url, max: 1 })
    try {
      const seqScans = async () => {
        await one.query('SELECT pg_stat_force_next_flush()')
        const { rows } = await one.query(
          `SELECT relname, seq_scan::int FROM pg_stat_user_tables WHERE relname IN ('pgqueuer', 'pgqueuer_log') ORDER BY relname`,
        )
        return rows
      }
      const beforeScans = await seqScans()
      const s = await queueStats(one, opts)
      assert.equal(s.totals.queued, 80000)
      const afterScans = await seqScans()
      assert.deepEqual(afterScans, beforeScans)
    } finally {
      await one.end()
    }
  })
})

describe('cron helpers', () => {
  it('reads PgQueuer six-field crons (seconds last)', () => {
    assert.equal(toCronParserExpression('*/5 * * * * 30'), '30 */5 * * * *')
    assert.equal(toCronParserExpression('0 4 * * 0'), '0 4 * * 0')
    assert.equal(cronPeriodSeconds('*/15 * * * *'), 900)
    assert.equal(cronPeriodSeconds('not a cron'), null)
  })
})
