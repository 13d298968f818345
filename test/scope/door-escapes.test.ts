/**
 * Keys belong to sets: nothing tenant A enqueues through the door can block a job of B's set
 * (dedupe-key squatting), a payload B's handler would refuse is refused at the door instead of
 * being held with a live key, the door bounds payload size and `execute_after`, and usage capture
 * keys are B's own. A is the attacker (the app login inside its scoped transaction), B the victim.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { writeDocument } from '../../src/graph/project/write-memory.js'
import { CHUNK_PROJECTION_ENTRYPOINT } from '../../src/ingest/projection.js'
import { UsageAccountingJob } from '../../src/jobs/inventory/index.js'
import { enqueue } from '../../src/queue/enqueue.js'
import { User } from '../../src/scope/user.js'
import { recordUsage } from '../../src/usage/record-usage.js'
import { A, B, fileAppLogin, identity } from '../support/app-login.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase()
const app = await fileAppLogin(db)
const as = (scopes: string[]) => User.system(scopes, identity)
const chunking = { chunkMaxChars: 400, chunkOverlapChars: 0 }
const usage = (over: Record<string, unknown> = {}) => ({
  entrypoint: 'aizk_usage_event',
  priority: 0,
  payload: { captureKey: 'cap', scopes: [A], kind: 'tokens', quantity: 1, occurredAt: '2026-01-01T00:00:00Z', ...((over.payload as object) ?? {}) },
  dedupeKey: (over.dedupeKey as string | undefined) ?? `usage:${A}:cap`,
  ...(over.executeAfter ? { executeAfter: over.executeAfter as Date } : {}),
})
const refusedAsA = (item: ReturnType<typeof usage>) =>
  as([A])
    .transaction(app.scoped, (c) => enqueue(c, item as never))
    .then(
      (id) => assert.fail(`enqueued ${id}`),
      (err: Error) => err.message,
    )
const live = async (key: string) =>
  (await db.pool.query<{ entrypoint: string }>(`select entrypoint from pgqueuer where dedupe_key = $1 order by id`, [key])).rows.map((r) => r.entrypoint)

describe('dedupe keys belong to sets', () => {
  it("A's usage events keyed insight:<B>, raptor:<B>, communities:<B> or B's chunk id are refused; B's own jobs still enqueue", async () => {
    await as([B]).transaction(app.scoped, (c) => writeDocument(c, [B], { title: 'B notes', body: 'Tenant B keeps its notes here.' }, chunking))
    const bChunk = (await db.pool.query(`select id::text from chunk where scopes = $1::uuid[] limit 1`, [[B]])).rows[0].id
    // B's projection ran: its key is free again, for B's next projection of that chunk.
    await db.pool.query('delete from pgqueuer where dedupe_key = $1', [bChunk])

    for (const key of [`insight:${B}`, `raptor:${B}`, `communities:${B}`, bChunk, `usage:${B}:cap`]) {
      assert.match(await refusedAsA(usage({ dedupeKey: key })), /dedupe key of aizk_usage_event must be usage: followed by the write set/, key)
      assert.deepEqual(await live(key), [], key)
    }
    // B's own: its scoped enqueues through the door, and the scheduler's passes as the owner.
    const raptor = await as([B]).transaction(app.scoped, (c) =>
      enqueue(c, { entrypoint: 'aizk_task_raptor', priority: 10, dedupeKey: `raptor:${B}`, payload: { scopes: [B] } }),
    )
    assert.ok(raptor)
    const projection = await as([B]).transaction(app.scoped, (c) =>
      enqueue(c, { entrypoint: CHUNK_PROJECTION_ENTRYPOINT, priority: 50, dedupeKey: bChunk, payload: { chunkId: bChunk, scopes: [B] } }),
    )
    assert.ok(projection)
    for (const [entrypoint, key] of [
      ['aizk_task_insight', `insight:${B}`],
      ['aizk_task_communities', `communities:${B}`],
    ]) {
      assert.ok(await enqueue(db.pool, { entrypoint, priority: 10, dedupeKey: key, payload: { scopes: [B] } }), key)
    }
    assert.ok(
      await as([B]).transaction(app.scoped, (c) =>
        UsageAccountingJob.enqueueEvent(c, { captureKey: 'cap', scopes: [B], kind: 'tokens', occurredAt: '2026-01-01T00:00:00Z' }),
      ),
    )
    // A's own usage event, keyed in its own namespace, goes in.
    assert.ok(
      await as([A]).transaction(app.scoped, (c) =>
        UsageAccountingJob.enqueueEvent(c, { captureKey: 'cap', scopes: [A], kind: 'tokens', occurredAt: '2026-01-01T00:00:00Z' }),
      ),
    )
    assert.deepEqual(await live(`usage:${A}:cap`), ['aizk_usage_event'])
  })

  it('a payload the handler would refuse is refused at the door, not held with a live key', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ occurredAt: 'yesterday' }, /payload\.occurredAt must be an ISO date-time/],
      [{ quantity: 'many' }, /payload\.quantity must be of type number, not string/],
      [{ kind: '' }, /payload\.kind must be at least 1 characters long/],
    ]
    for (const [payload, why] of cases) {
      const message = await refusedAsA(usage({ payload, dedupeKey: `usage:${A}:bad` }))
      assert.match(message, why)
      assert.match(message, /which its handler would refuse/)
    }
    assert.deepEqual(await live(`usage:${A}:bad`), [])
  })

  it('the door refuses a payload over AIZK_ENQUEUE_MAX_PAYLOAD_BYTES and an infinite execute_after', async () => {
    const big = await refusedAsA(usage({ payload: { pad: 'x'.repeat(300_000) }, dedupeKey: `usage:${A}:big` }))
    assert.match(big, /the payload is \d+ bytes, more than the 262144 the door accepts \(AIZK_ENQUEUE_MAX_PAYLOAD_BYTES/)
    for (const when of ['-infinity', 'infinity']) {
      const err = await as([A]).transaction(app.scoped, (c) =>
        c
          .query(
            `select * from aizk_app_enqueue('{0}', '{aizk_usage_event}', array[convert_to($1, 'UTF8')], array[$2], array[$3::timestamptz], '{NULL}', false)`,
            [JSON.stringify(usage().payload), `usage:${A}:when`, when],
          )
          .catch((e: Error) => e),
      )
      assert.match(String(err), /execute_after must be a finite time/, when)
    }
    assert.deepEqual(await live(`usage:${A}:big`), [])
    assert.deepEqual(await live(`usage:${A}:when`), [])
    // The limit is the database's: the owner (aizk install) raises it, and the same payload goes in.
    await db.pool.query('update aizk_enqueue_limit set max_payload_bytes = 400000')
    try {
      assert.ok(
        await as([A]).transaction(app.scoped, (c) => enqueue(c, usage({ payload: { pad: 'x'.repeat(300_000) }, dedupeKey: `usage:${A}:big` }) as never)),
      )
    } finally {
      await db.pool.query('update aizk_enqueue_limit set max_payload_bytes = 262144')
    }
  })
})

describe('usage capture keys belong to sets', () => {
  it("A recording B's capture key neither blocks B's event nor learns that B used it", async () => {
    const event = (scopes: string[], captureKey: string) => ({ captureKey, scopes, kind: 'tokens', quantity: 5, occurredAt: new Date('2026-01-01T00:00:00Z') })
    // B used `b-used`; A's insert of it counts as A's own, as it would had B never used it.
    assert.equal(await as([B]).transaction(app.scoped, (c) => recordUsage(c, event([B], 'b-used'))), true)
    assert.equal(await as([A]).transaction(app.scoped, (c) => recordUsage(c, event([A], 'b-used'))), true)
    assert.equal(await as([A]).transaction(app.scoped, (c) => recordUsage(c, event([A], 'b-unused'))), true)
    // A took `b-next` first; B's event with it still counts.
    assert.equal(await as([A]).transaction(app.scoped, (c) => recordUsage(c, event([A], 'b-next'))), true)
    assert.equal(await as([B]).transaction(app.scoped, (c) => recordUsage(c, event([B], 'b-next'))), true)
    // A replay within a set still counts once.
    assert.equal(await as([B]).transaction(app.scoped, (c) => recordUsage(c, event([B], 'b-next'))), false)
    const { rows } = await db.pool.query(`select events::int from aizk_usage_daily where scopes = $1::uuid[]`, [[B]])
    assert.deepEqual(rows, [{ events: 2 }])
  })
})
