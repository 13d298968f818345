/**
 * Payloads arrive as sent: raw bytes that are not JSON, and no payload at all (None / null).
 */
import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { enqueue } from '../../src/queue/enqueue.js'
import { hex, idsOf, pgqEnqueue, pgqOne } from '../support/interop/pgqueuer.js'
import { interopFile, it, runsOf } from '../support/interop/scenario.js'

const { scenario, aizkWorker, pgqWorker } = interopFile()

describe('raw payloads between PgQueuer and aizk', () => {
  it('raw payloads: bytes that are not JSON and a None payload reach a bytes job unchanged', async () => {
    const db = await scenario()
    const raw = Buffer.from([0x00, 0xff, 0x80, 0x7b, 0x22, 0xc3])
    const [rawId, noneId] = idsOf(await pgqEnqueue(db.url, 'interop_bytes', [{ payload: raw }, { payload: null }])) as string[]
    const [jsonNoneId] = idsOf(await pgqOne(db.url, ['enqueue', 'interop_json', '--null'])) as string[]
    const w = aizkWorker(db, ['interop_bytes', 'interop_json'])
    for (const id of [rawId, noneId, jsonNoneId]) await w.waitFor((e) => e.event === 'job:completed' && e.jobId === id, `completion of ${id}`)
    // The two run at once, so in either order: compared by job id.
    const bytes = (await runsOf(db.pool, 'interop_bytes')).sort((a, b) => Number(a.job_id) - Number(b.job_id))
    assert.deepEqual(
      bytes.map((r) => [r.job_id, r.payload_hex, r.payload_json]),
      [
        [rawId, hex(raw), null],
        [noneId, null, null],
      ],
    )
    const json = await runsOf(db.pool, 'interop_json')
    assert.deepEqual(
      json.map((r) => [r.job_id, r.payload_json]),
      [[jsonNoneId, 'null']],
      'a JSON job sees a None payload as null',
    )
  })

  it('aizk enqueues raw bytes and PgQueuer receives them unchanged', async () => {
    const db = await scenario()
    const raw = Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00])
    const worker = pgqWorker(db, ['pgq_bytes'])
    await worker.queueManagerId
    const id = (await enqueue(db.pool, { entrypoint: 'pgq_bytes', payload: raw })) as string
    const started = await worker.waitFor((e) => e.event === 'start' && String(e.id) === id, 'the start')
    assert.equal(started.payload_hex, hex(raw))
  })
})
