import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { z } from 'zod'
import { QueueJob } from '../../src/jobs/queue-job.js'
import { JobDeclarationError, JobRegistry } from '../../src/jobs/registry.js'
import { enqueue, enqueueMany } from '../../src/queue/enqueue.js'
import { PayloadError } from '../../src/queue/payload.js'
import { fileDatabase } from '../support/db.js'

class ProbeJob extends QueueJob<{ n: number }> {
  static override entrypoint = 'test_probe'
  static override payload = z.object({ n: z.number().int() })
  static override priority = 7
  async handle() {}
}

const db = await fileDatabase()

describe('enqueue', () => {
  it('stores the payload as JSON bytes with priority, headers and execute-after', async () => {
    const when = new Date(Date.now() + 60_000)
    const id = await enqueue(db.pool, { entrypoint: 'e1', payload: { a: 1 }, priority: 3, executeAfter: when, headers: { h: 'x' } })
    assert.ok(id)
    const { rows } = await db.pool.query('select * from pgqueuer where id = $1', [id])
    assert.equal(rows[0].payload.toString(), '{"a":1}')
    assert.equal(rows[0].priority, 3)
    assert.equal(rows[0].status, 'queued')
    assert.deepEqual(rows[0].headers, { h: 'x' })
    assert.equal(rows[0].execute_after.getTime(), when.getTime())
  })

  it('writes a queued log row per job only with log parity (PgQueuer writes one on enqueue)', async () => {
    const plain = await enqueue(db.pool, { entrypoint: 'e_log' })
    const logged = await enqueue(db.pool, { entrypoint: 'e_log', priority: 4 }, { logQueued: true })
    const skipped = await enqueue(db.pool, { entrypoint: 'e_log', dedupeKey: 'lk' }, { logQueued: true })
    const again = await enqueue(db.pool, { entrypoint: 'e_log', dedupeKey: 'lk' }, { logQueued: true })
    assert.equal(again, false)
    const { rows } = await db.pool.query("select job_id::text as id, status, priority from pgqueuer_log where entrypoint = 'e_log' order by job_id")
    assert.deepEqual(rows, [
      { id: logged, status: 'queued', priority: 4 },
      { id: skipped, status: 'queued', priority: 0 },
    ])
    assert.ok(plain)
  })

  it('returns false for a live dedupe key, per item in a batch', async () => {
    assert.ok(await enqueue(db.pool, { entrypoint: 'e2', dedupeKey: 'dk-1' }))
    assert.equal(await enqueue(db.pool, { entrypoint: 'e2', dedupeKey: 'dk-1' }), false)
    const ids = await enqueueMany(db.pool, [
      { entrypoint: 'e2', dedupeKey: 'dk-1' },
      { entrypoint: 'e2' },
      { entrypoint: 'e2', dedupeKey: 'dk-2' },
      { entrypoint: 'e2', dedupeKey: 'dk-2' },
      { entrypoint: 'e2', payload: { z: 1 } },
    ])
    assert.equal(ids[0], false)
    assert.ok(ids[1])
    assert.ok(ids[2])
    assert.equal(ids[3], false)
    assert.ok(ids[4])
    assert.equal(new Set(ids.filter(Boolean)).size, 3)
  })

  it('a held job keeps its key; a succeeded one (row gone) frees it', async () => {
    const id = await enqueue(db.pool, { entrypoint: 'e3', dedupeKey: 'held-1' })
    await db.pool.query("update pgqueuer set status = 'failed' where id = $1", [id])
    assert.equal(await enqueue(db.pool, { entrypoint: 'e3', dedupeKey: 'held-1' }), false)
    await db.pool.query('delete from pgqueuer where id = $1', [id])
    assert.ok(await enqueue(db.pool, { entrypoint: 'e3', dedupeKey: 'held-1' }))
  })

  it("commits and rolls back with the caller's transaction", async () => {
    const client = await db.pool.connect()
    try {
      await client.query('begin')
      await enqueue(client, { entrypoint: 'tx_probe', dedupeKey: 'tx-rolled-back' })
      await client.query('rollback')
      await client.query('begin')
      await enqueue(client, { entrypoint: 'tx_probe', dedupeKey: 'tx-committed' })
      await client.query('commit')
    } finally {
      client.release()
    }
    const { rows } = await db.pool.query("select dedupe_key from pgqueuer where entrypoint = 'tx_probe'")
    assert.deepEqual(rows, [{ dedupe_key: 'tx-committed' }])
  })

  it('a job class validates its payload before anything is written', async () => {
    await assert.rejects(ProbeJob.enqueue(db.pool, { n: 'x' as unknown as number }), (err) => {
      assert.ok(err instanceof PayloadError)
      assert.match(err.message, /n: Expected number/)
      return true
    })
    const { rows } = await db.pool.query("select count(*)::int as n from pgqueuer where entrypoint = 'test_probe'")
    assert.equal(rows[0].n, 0)
    const id = await ProbeJob.enqueue(db.pool, { n: 1 })
    const row = (await db.pool.query('select priority from pgqueuer where id = $1', [id])).rows[0]
    assert.equal(row.priority, 7)
  })

  it('keeps live counts exact through inserts, updates and deletes', async () => {
    await enqueueMany(
      db.pool,
      Array.from({ length: 5 }, () => ({ entrypoint: 'counted', priority: 1 })),
    )
    await db.pool.query("update pgqueuer set status = 'picked' where id in (select id from pgqueuer where entrypoint = 'counted' limit 2)")
    await db.pool.query("delete from pgqueuer where id in (select id from pgqueuer where entrypoint = 'counted' and status = 'picked' limit 1)")
    const { rows } = await db.pool.query(`select status, sum(n)::int as n from (
        select status, n from aizk_queue_count where entrypoint = 'counted'
        union all select status, n from aizk_queue_count_delta where entrypoint = 'counted') c
      group by status order by status`)
    assert.deepEqual(rows, [
      { status: 'queued', n: 3 },
      { status: 'picked', n: 1 },
    ])
  })
})

describe('enqueueMany stores exactly what enqueue stores', () => {
  const payloads: unknown[] = [
    { a: 1, nested: { list: [1, 2.5, 'x'], none: null } },
    'a "quoted" \\ string with é, 日本 and 🎉',
    'null',
    '\u0000 and a lone \ud800',
    0.1,
    [],
    true,
    null,
    undefined,
    new Date(Date.UTC(2026, 0, 2)),
  ]

  async function stored(ids: (string | false)[]) {
    const { rows } = await db.pool.query<{ id: string; payload: Buffer | null; priority: number; headers: unknown; execute_after: Date }>(
      'select id::text as id, payload, priority, headers, execute_after from pgqueuer where id = any($1::bigint[]) order by id',
      [ids],
    )
    return rows
  }

  it('one JSON document for the payloads: the same bytes, SQL NULL for null and undefined, ids in item order', async () => {
    const many = await enqueueMany(
      db.pool,
      payloads.map((payload) => ({ entrypoint: 'exact_many', payload })),
    )
    const ones: (string | false)[] = []
    for (const payload of payloads) ones.push(await enqueue(db.pool, { entrypoint: 'exact_one', payload }))
    assert.equal(many.length, payloads.length)
    const asNumbers = many.map((id) => Number(id))
    assert.deepEqual(
      asNumbers,
      [...asNumbers].sort((x, y) => x - y),
      'ids ascend in item order',
    )
    const a = await stored(many)
    const b = await stored(ones)
    assert.deepEqual(
      a.map((r) => r.payload?.toString('hex') ?? null),
      b.map((r) => r.payload?.toString('hex') ?? null),
    )
    assert.equal(a[0].payload?.toString(), JSON.stringify(payloads[0]))
    assert.equal(a[7].payload, null)
    assert.equal(a[8].payload, null)
  })

  it('raw bytes, priorities, keys, execute-after and headers, mixed with defaults in one batch', async () => {
    const when = new Date(Date.now() + 3_600_000)
    const bytes = Buffer.from([0, 1, 2, 255])
    const ids = await enqueueMany(db.pool, [
      { entrypoint: 'mixed_many', payload: bytes, priority: 2, headers: { h: 1 } },
      { entrypoint: 'mixed_many', payload: { j: 1 } },
      { entrypoint: 'mixed_many', payload: { j: 2 }, executeAfter: when, dedupeKey: 'mixed-k' },
      { entrypoint: 'mixed_many', payload: { j: 3 }, dedupeKey: 'mixed-k' },
    ])
    assert.equal(ids[3], false)
    const rows = await stored(ids.filter((id) => id !== false))
    assert.deepEqual(
      rows.map((r) => [r.payload?.toString('hex'), r.priority, r.headers]),
      [
        ['000102ff', 2, { h: 1 }],
        [Buffer.from('{"j":1}').toString('hex'), 0, null],
        [Buffer.from('{"j":2}').toString('hex'), 0, null],
      ],
    )
    assert.equal(rows[2].execute_after.getTime(), when.getTime())
    const jsonOnly = await enqueueMany(db.pool, [
      { entrypoint: 'mixed_many', payload: { k: 1 }, priority: -3 },
      { entrypoint: 'mixed_many', payload: { k: 2 } },
    ])
    assert.deepEqual(
      (await stored(jsonOnly)).map((r) => r.priority),
      [-3, 0],
    )
  })

  it('one-row and many-row statements count alike (the one-row fast path of aizk_count_insert)', async () => {
    await enqueue(db.pool, { entrypoint: 'count_fast', priority: 1 })
    await enqueue(db.pool, { entrypoint: 'count_fast', priority: 1 })
    await enqueueMany(db.pool, [{ entrypoint: 'count_fast', priority: 1 }, { entrypoint: 'count_fast', priority: 2 }, { entrypoint: 'count_fast_b' }])
    await enqueueMany(db.pool, [{ entrypoint: 'count_fast', priority: 2 }])
    const { rows: deltas } = await db.pool.query(
      "select entrypoint, priority, n::int from aizk_queue_count_delta where entrypoint like 'count_fast%' order by 1, 2, 3",
    )
    assert.deepEqual(deltas, [
      { entrypoint: 'count_fast', priority: 1, n: 1 },
      { entrypoint: 'count_fast', priority: 1, n: 1 },
      { entrypoint: 'count_fast', priority: 1, n: 1 },
      { entrypoint: 'count_fast', priority: 2, n: 1 },
      { entrypoint: 'count_fast', priority: 2, n: 1 },
      { entrypoint: 'count_fast_b', priority: 0, n: 1 },
    ])
    const { rows } = await db.pool.query(
      "select entrypoint, priority, count(*)::int as n from pgqueuer where entrypoint like 'count_fast%' group by 1, 2 order by 1, 2",
    )
    assert.deepEqual(rows, [
      { entrypoint: 'count_fast', priority: 1, n: 3 },
      { entrypoint: 'count_fast', priority: 2, n: 2 },
      { entrypoint: 'count_fast_b', priority: 0, n: 1 },
    ])
  })
})

describe('job declarations', () => {
  it('are checked when they register', () => {
    const registry = new JobRegistry()
    registry.register(ProbeJob)
    class Dup extends QueueJob {
      static override entrypoint = 'test_probe'
      static override payload = z.object({})
      async handle() {}
    }
    assert.throws(() => registry.register(Dup), /declared twice/)
    class BadLimit extends QueueJob {
      static override entrypoint = 'bad_limit'
      static override payload = z.object({})
      static override concurrencyLimit = -1
      async handle() {}
    }
    assert.throws(() => registry.register(BadLimit), JobDeclarationError)
    class BadName extends QueueJob {
      static override entrypoint = 'Bad Name'
      static override payload = z.object({})
      async handle() {}
    }
    assert.throws(() => registry.register(BadName), /entrypoint "Bad Name"/)
    class BadDeadline extends QueueJob {
      static override entrypoint = 'bad_deadline'
      static override payload = z.object({})
      static override statementDeadlineSeconds = -1
      async handle() {}
    }
    assert.throws(() => registry.register(BadDeadline), /statementDeadlineSeconds must be seconds from 0 \(none\).*got -1/)
    class LongStatements extends QueueJob {
      static override entrypoint = 'long_statements'
      static override payload = z.object({})
      static override statementDeadlineSeconds = 'job-timeout' as const
      async handle() {}
    }
    registry.register(LongStatements)
  })
})
