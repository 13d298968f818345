import assert from 'node:assert/strict'
import { beforeEach, describe, it } from 'node:test'
import { ConflictError } from '../../src/errors.js'
import { countPrunable, logSize, type PruneProgress, pruneLog, reclaimLog } from '../../src/queue/prune.js'
import { insertLog } from '../support/commands/queue-rows.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase()

beforeEach(async () => {
  await db.pool.query('TRUNCATE pgqueuer_log')
})

describe('pruneLog', () => {
  it('deletes rows past the retention in batches until a short batch, keeps the rest, then vacuums', async () => {
    await insertLog(db.pool, 2500, 10)
    await insertLog(db.pool, 300, 1)
    assert.deepEqual((await countPrunable(db.pool, { retentionDays: 7 })).rows, 2500)
    const progress: PruneProgress[] = []
    const result = await pruneLog(db.pool, { retentionDays: 7, batch: 1000, countFirst: true, onProgress: (p) => progress.push(p) })
    assert.equal(result.deleted, 2500)
    assert.equal(result.batches, 3)
    assert.equal(result.vacuumed, true)
    assert.deepEqual(
      progress.map((p) => [p.deleted, p.lastBatch, p.total]),
      [
        [1000, 1000, 2500],
        [2000, 1000, 2500],
        [2500, 500, 2500],
      ],
    )
    const { rows } = await db.pool.query(`SELECT count(*)::int AS n, min(created) > now() - interval '7 days' AS recent FROM pgqueuer_log`)
    assert.equal(rows[0].n, 300)
    assert.equal(rows[0].recent, true)
    const { rows: stats } = await db.pool.query(
      `SELECT last_vacuum IS NOT NULL OR last_autovacuum IS NOT NULL AS v FROM pg_stat_user_tables WHERE relname = 'pgqueuer_log'`,
    )
    assert.equal(stats[0].v, true)
  })

  it('an exact multiple ends with one empty batch; nothing to delete is one batch', async () => {
    await insertLog(db.pool, 2000, 10)
    const r = await pruneLog(db.pool, { retentionDays: 7, batch: 1000, vacuum: false })
    assert.deepEqual([r.deleted, r.batches, r.vacuumed], [2000, 3, false])
    const none = await pruneLog(db.pool, { retentionDays: 7, batch: 1000, vacuum: false })
    assert.deepEqual([none.deleted, none.batches], [0, 1])
  })

  it('each batch is an index scan on created', async () => {
    await insertLog(db.pool, 20000, 10)
    await db.pool.query('ANALYZE pgqueuer_log')
    const { rows } = await db.pool.query(
      `EXPLAIN WITH doomed AS (SELECT id FROM pgqueuer_log WHERE created < now() - interval '7 days' ORDER BY created LIMIT 1000)
       DELETE FROM pgqueuer_log l USING doomed WHERE l.id = doomed.id`,
    )
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n')
    assert.match(plan, /Index (Only )?Scan using pgqueuer_log_created/)
  })

  it('rejects a bad batch or retention', async () => {
    await assert.rejects(pruneLog(db.pool, { retentionDays: 7, batch: 0 }), /batch/)
    await assert.rejects(pruneLog(db.pool, { retentionDays: -1, batch: 10 }), /retentionDays/)
  })

  it('logSize reads the catalogue; reclaimLog hands disk back', async () => {
    await insertLog(db.pool, 50000, 10)
    await db.pool.query('ANALYZE pgqueuer_log')
    const before = await logSize(db.pool)
    assert.ok(before.rowsEstimate !== null && before.rowsEstimate > 40000, `estimate ${before.rowsEstimate}`)
    await pruneLog(db.pool, { retentionDays: 7, batch: 10000 })
    // Given the pool, it takes a connection of its own and gives it back without its lock_timeout.
    const r = await reclaimLog(db.pool, { lockTimeoutMs: 1234 })
    assert.ok(r.bytesAfter < r.bytesBefore, `${r.bytesAfter} < ${r.bytesBefore}`)
    const clients = await Promise.all([db.pool.connect(), db.pool.connect()])
    try {
      for (const c of clients) assert.notEqual((await c.query('SHOW lock_timeout')).rows[0].lock_timeout, '1234ms')
    } finally {
      for (const c of clients) c.release()
    }
  })

  it('reclaim gives up with a conflict when another session holds the table', async () => {
    const holder = await db.pool.connect()
    const client = await db.pool.connect()
    try {
      await holder.query('BEGIN')
      await holder.query('LOCK TABLE pgqueuer_log IN ROW EXCLUSIVE MODE')
      await assert.rejects(reclaimLog(client, { lockTimeoutMs: 200 }), (err) => err instanceof ConflictError)
    } finally {
      await holder.query('ROLLBACK')
      holder.release()
      client.release()
    }
  })
})
