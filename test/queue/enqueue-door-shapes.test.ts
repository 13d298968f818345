/**
 * The enqueue door checks each payload against the schema stored for its entrypoint
 * (aizk_app_entrypoint.payload_schema). Those schemas are the job classes' zod schemas, translated
 * (test/support/payload-shape.ts): a job class whose schema changes fails here until a migration
 * stores the new one. And the door never accepts what the handler's zod schema refuses.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import '../../src/jobs/inventory/index.js'
import { jobRegistry } from '../../src/jobs/registry.js'
import { fileDatabase } from '../support/db.js'
import { payloadShape } from '../support/payload-shape.js'

const db = await fileDatabase()

const A = 'aaaaaaaa-0000-4000-8000-000000000001'
const refusal = async (entrypoint: string, payload: unknown): Promise<string | null> =>
  (
    await db.pool.query<{ why: string | null }>(
      `select aizk_payload_shape_refusal($1::jsonb, payload_schema, 'payload') as why from aizk_app_entrypoint where entrypoint = $2`,
      [JSON.stringify(payload), entrypoint],
    )
  ).rows[0].why

describe('payload schemas at the enqueue door', () => {
  it("every aizk entrypoint scoped work may enqueue stores its job class's zod schema", async () => {
    const { rows } = await db.pool.query<{ entrypoint: string; payload_schema: unknown }>(
      'select entrypoint, payload_schema from aizk_app_entrypoint order by 1',
    )
    assert.equal(rows.length, 6)
    for (const row of rows) {
      const job = jobRegistry.get(row.entrypoint)
      assert.ok(job, row.entrypoint)
      assert.deepEqual(row.payload_schema, payloadShape(job.payload), row.entrypoint)
    }
  })

  it("accepts nothing the handler's schema refuses", async () => {
    const usage = { captureKey: 'k', scopes: [A], kind: 'tokens', quantity: 3, occurredAt: '2026-01-01T00:00:00Z' }
    const samples: [string, unknown][] = [
      ['aizk_usage_event', usage],
      ['aizk_usage_event', { ...usage, quantity: undefined, extra: { any: 'thing' } }],
      ['aizk_usage_event', { ...usage, occurredAt: '2026-01-01T00:00+02:00' }],
      ['aizk_usage_event', { ...usage, occurredAt: '2026-01-01T00:00:00.123-0530' }],
      ['aizk_usage_event', { ...usage, captureKey: '😀'.repeat(250) }],
      ['aizk_usage_event', { ...usage, captureKey: '😀'.repeat(251) }],
      ['aizk_usage_event', { ...usage, captureKey: '' }],
      ['aizk_usage_event', { ...usage, kind: undefined }],
      ['aizk_usage_event', { ...usage, kind: 7 }],
      ['aizk_usage_event', { ...usage, quantity: 'many' }],
      ['aizk_usage_event', { ...usage, quantity: null }],
      ['aizk_usage_event', { ...usage, occurredAt: 'yesterday' }],
      ['aizk_usage_event', { ...usage, occurredAt: '2026-02-30T00:00:00Z' }],
      ['aizk_usage_event', { ...usage, occurredAt: '2026-01-01T24:00:00Z' }],
      ['aizk_usage_event', { ...usage, occurredAt: '2026-01-01T00:00:00+02' }],
      ['aizk_usage_event', { ...usage, occurredAt: '2026-01-01 00:00:00Z' }],
      ['aizk_usage_event', { ...usage, scopes: [] }],
      ['aizk_usage_event', { ...usage, scopes: ['not-a-uuid'] }],
      ['aizk_usage_event', { ...usage, scopes: A }],
      ['aizk_usage_event', [usage]],
      ['aizk_usage_event', 'text'],
      ['aizk_build_graph_chunk', { chunkId: A.toUpperCase(), scopes: [A] }],
      ['aizk_build_graph_chunk', { chunkId: 'x', scopes: [A] }],
      ['aizk_convert_artifact', { artifactId: A, scopes: [A] }],
      ['aizk_convert_artifact', { scopes: [A] }],
      ['aizk_task_raptor', { scopes: [A], more: 1 }],
      ['aizk_task_raptor', { scopes: [A, 7] }],
    ]
    let accepted = 0
    for (const [entrypoint, payload] of samples) {
      const job = jobRegistry.get(entrypoint)
      assert.ok(job)
      const door = await refusal(entrypoint, payload)
      const zod = job.payload.safeParse(payload).success
      // Both ways here: the door is no stricter than the handler on these samples either.
      assert.equal(door === null, zod, `${entrypoint} ${JSON.stringify(payload)}: door ${door}, zod ${zod}`)
      if (door === null) accepted++
    }
    assert.equal(accepted, 8)
  })

  it('names what is wrong, and where', async () => {
    assert.equal(await refusal('aizk_usage_event', { captureKey: 'k', scopes: [A], occurredAt: '2026-01-01T00:00:00Z' }), 'payload.kind is missing')
    assert.equal(await refusal('aizk_task_raptor', { scopes: [A, 'x'] }), 'payload.scopes[1] must be a uuid')
    assert.equal(
      await refusal('aizk_usage_event', { captureKey: 'k', scopes: [A], kind: 'k', quantity: 'many', occurredAt: '2026-01-01T00:00:00Z' }),
      'payload.quantity must be of type number, not string',
    )
  })
})
