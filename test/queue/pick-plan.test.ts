/**
 * The pick's plans when the planner's statistics are stale: the queue analysed while empty, then a
 * burst enqueued before anything analyses it again (autovacuum off, or not there yet). Every pick
 * must still read its entrypoint's ready rows in pick order from aizk_ready_ep_prio_id_idx, not
 * collect and sort every queued row. The plans are read from auto_explain's nested statements.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { pickJobs, planPick } from '../../src/queue/pick.js'
import { queueTestDatabase } from '../support/db.js'

const db = queueTestDatabase()

/** Picks `batch` in one transaction with auto_explain on, returning the ids and every nested plan logged. */
async function pickExplained(entrypoint: string, batch: number): Promise<{ ids: string[]; plans: string[] }> {
  const client = await db.pool.connect()
  const plans: string[] = []
  const onNotice = (n: { message?: string }) => {
    if (n.message?.includes('plan:')) plans.push(n.message)
  }
  client.on('notice', onNotice)
  try {
    await client.query('BEGIN')
    await client.query("LOAD 'auto_explain'")
    for (const set of ['log_min_duration = 0', 'log_nested_statements = on', 'log_level = notice']) await client.query(`SET LOCAL auto_explain.${set}`)
    await client.query('SET LOCAL client_min_messages = notice')
    const jobs = await pickJobs(client, planPick(randomUUID(), [{ entrypoint, concurrencyLimit: 0 }]), batch, 0)
    await client.query('ROLLBACK')
    return { ids: jobs.map((j) => j.id), plans }
  } finally {
    client.off('notice', onNotice)
    client.release()
  }
}

/** Whether a plan sorts what a scan of pgqueuer returns (a Sort node whose input is that scan). */
function sortsQueueRows(plan: string): boolean {
  const lines = plan.split('\n').filter((l) => !/^\s*Sort Key:/.test(l))
  return lines.some((line, i) => /(^|->\s+)Sort\b/.test(line.trim()) && /Scan .*on pgqueuer q\b/.test(lines[i + 1] ?? ''))
}

describe('aizk_pick with statistics of an empty queue', () => {
  it('walks the ready rows in pick order instead of sorting the whole queue', async () => {
    await db.pool.query('ANALYZE pgqueuer')
    const ids = await enqueueMany(
      db.pool,
      Array.from({ length: 50_000 }, (_, i) => ({ entrypoint: 'burst', priority: i % 3 })),
    )
    const { rows } = await db.pool.query<{ reltuples: number }>("SELECT reltuples FROM pg_class WHERE relname = 'pgqueuer'")
    assert.ok(rows[0].reltuples <= 0, 'the statistics still describe an empty table')

    const { ids: picked, plans } = await pickExplained('burst', 4)
    const expected = await db.pool.query<{ id: string }>("SELECT id FROM pgqueuer WHERE status = 'queued' ORDER BY priority DESC, id LIMIT 4")
    assert.deepEqual(picked, expected.rows.map((r) => r.id), 'the pick takes the first rows in pick order')
    assert.equal(ids.length, 50_000)

    const walk = plans.filter((p) => p.includes('ORDER BY q.priority DESC, q.id') && p.includes('q.execute_after <= q.created'))
    assert.ok(walk.length > 0, `the ready walk's plan was logged (plans seen: ${plans.length})`)
    for (const plan of walk) assert.match(plan, /aizk_ready_ep_prio_id_idx/, `the ready walk reads the ready index:\n${plan}`)
    for (const plan of plans) {
      assert.ok(!sortsQueueRows(plan), `no statement of the pick sorts rows of the queue:\n${plan}`)
      assert.doesNotMatch(plan, /JIT:/, `no statement of the pick is costed high enough to be compiled:\n${plan}`)
    }
  })
})
