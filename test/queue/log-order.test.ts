/**
 * pgqueuer_log read in numeric id order through an index (docs/job-lifecycle.md#log): ids are
 * read as text, and an ORDER BY on the bare name sorted that text, so 1000 came before 999. The
 * log's sequence starts at 990 here, so the rows cross 999 -> 1000 as they did in the issue.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { readJobStory } from '../../src/queue/job-story.js'
import { readRecentFailures, readRecentLog } from '../../src/queue/log-read.js'
import { readOutcomes } from '../../src/queue/recent-outcomes.js'
import { READ_RECENT_FAILURES, READ_RECENT_LOG } from '../../src/queue/sql/log-read.js'
import { READ_OUTCOMES_AFTER, READ_OUTCOMES_SINCE } from '../../src/queue/sql/recent-outcomes.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase({ emptied: ['pgqueuer', 'pgqueuer_log'] })

/** `n` terminal log rows written in one statement (one `created`, as a batch of completions has), ids from 990; every tenth a hold. */
async function logFrom990(n: number, jobId?: number): Promise<string[]> {
  await db.pool.query("SELECT setval('pgqueuer_log_id_seq', 989)")
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO pgqueuer_log (job_id, status, priority, entrypoint)
     SELECT coalesce($2::bigint, g), CASE WHEN g % 10 = 0 THEN 'failed' ELSE 'successful' END::pgqueuer_status, 0, 'ep'
       FROM generate_series(1, $1::int) g ORDER BY g RETURNING id::text`,
    [n, jobId ?? null],
  )
  return rows.map((r) => r.id)
}

/** The plan of `sql` with `params`, the planner kept off sequential scans' cheapness on a small table as on a large log. */
async function plan(sql: string, params: unknown[]): Promise<string> {
  const client = await db.pool.connect()
  try {
    await client.query('BEGIN')
    await client.query('SET LOCAL enable_seqscan = off')
    await client.query('ANALYZE pgqueuer_log')
    const { rows } = await client.query(`EXPLAIN ${sql}`, params)
    await client.query('ROLLBACK')
    return rows.map((r) => r['QUERY PLAN']).join('\n')
  } finally {
    client.release()
  }
}

describe('log reads in numeric id order', () => {
  it("the live feed's cursor crosses 999 -> 1000 and skips no completion", async () => {
    const ids = await logFrom990(120)
    assert.equal(ids[0], '990')
    const seen: string[] = []
    let cursor = '989'
    for (let page = 0; page < 10; page++) {
      const rows = await readOutcomes(db.pool, cursor, 50)
      if (!rows.length) break
      seen.push(...rows.map((r) => r.logId))
      cursor = rows[rows.length - 1].logId
    }
    assert.deepEqual(seen, ids)
    const first = await readOutcomes(db.pool, null, 15)
    assert.deepEqual(
      first.map((r) => r.logId),
      ids.slice(-15),
      "a page's first view is the newest 15, oldest first",
    )
  })

  it('MCP queue_log and failed_jobs call the highest id the newest', async () => {
    const ids = await logFrom990(120)
    assert.deepEqual(
      (await readRecentLog(db.pool, 3)).map((r) => r.id),
      ['1109', '1108', '1107'],
    )
    assert.deepEqual(
      (await readRecentFailures(db.pool, 3)).map((r) => r.id),
      [ids[119], ids[109], ids[99]],
    )
    assert.deepEqual([ids[119], ids[109], ids[99]], ['1109', '1099', '1089'])
  })

  it("a job's story lists its log rows in id order when they share a timestamp", async () => {
    const ids = await logFrom990(20, 7)
    const story = await readJobStory(db.pool, '7', 30)
    assert.deepEqual(
      story?.log.map((r) => r.id),
      ids,
    )
  })

  it('each read walks an index, never a sort of the whole log', async () => {
    await logFrom990(2000)
    for (const [name, sql, params] of [
      ['outcomes since', READ_OUTCOMES_SINCE, [50, '1500']],
      ['outcomes, first view', READ_OUTCOMES_AFTER, [15]],
      ['recent log', READ_RECENT_LOG, [20]],
      ['recent failures', READ_RECENT_FAILURES, [20]],
    ] as const) {
      const p = await plan(sql, [...params])
      assert.match(p, /Index (Only )?Scan/, `${name}: ${p}`)
      assert.doesNotMatch(p, /Seq Scan|Bitmap/, `${name}: ${p}`)
      // Only the first view sorts: its page of 15, back to oldest first, above the Limit.
      const sorts = p.split('\n').filter((l) => /(^|->\s+)Sort\s+\(/.test(l.trim())).length
      assert.equal(sorts, name === 'outcomes, first view' ? 1 : 0, `${name}: ${p}`)
    }
    assert.match(await plan(READ_RECENT_FAILURES, [20]), /pgqueuer_log_failures/)
  })
})
