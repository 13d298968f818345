/**
 * Jobs cross in both directions between the real PgQueuer 1.3.2 and aizk, each run exactly
 * once, and payloads arrive as sent: JSON, raw bytes that are not JSON, and no payload at all.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { enqueue, enqueueMany } from '../../src/queue/enqueue.js'
import type { TestDatabase } from '../helpers/db.js'
import { killAll, type SpawnedWorker } from '../worker/spawn-worker.js'
import { hex, idsOf, pgqEnqueue, pgqOne, type PgqWorker, requirePgQueuer, startPgqWorker } from './support/pgqueuer.js'
import { eventually, pgqueuerDatabase, runsOf, startAizkWorker } from './support/scenario.js'

const dbs: TestDatabase[] = []
const aizkWorkers: SpawnedWorker[] = []
const pgqWorkers: PgqWorker[] = []
before(() => requirePgQueuer())
after(async () => {
  await killAll(aizkWorkers)
  await Promise.all(pgqWorkers.map((w) => w.stop('SIGKILL')))
  for (const db of dbs) await db.drop()
})
async function scenario() {
  const db = await pgqueuerDatabase()
  dbs.push(db)
  return db
}

// The suite runs real processes one scenario after another: more than the 300 s default.
describe('PgQueuer 1.3.2 and aizk, both directions', { timeout: 20 * 60_000 }, () => {
  it('PgQueuer enqueues, aizk runs each job exactly once with its JSON payload', async () => {
    const db = await scenario()
    const ids = idsOf(await pgqEnqueue(db.url, 'interop_json', [0, 1, 2, 3, 4].map((n) => ({ json: { n } })))) as string[]
    const w = startAizkWorker(db, ['interop_json'])
    aizkWorkers.push(w)
    for (const id of ids) await w.waitFor((e) => e.event === 'job:completed' && e.jobId === id, `completion of ${id}`)
    const runs = await runsOf(db.pool, 'interop_json')
    assert.deepEqual(runs.map((r) => r.job_id).sort(), [...ids].sort(), 'each job ran once')
    assert.deepEqual(runs.map((r) => JSON.parse(r.payload_json!).n).sort(), [0, 1, 2, 3, 4])
    // aizk completes in batches (with its next pick): wait for the rows to leave and the log rows.
    await eventually('the completions to be written', async () => {
      const { rows } = await db.pool.query("select count(*)::int as n from pgqueuer_log where status = 'successful' and job_id = any($1::bigint[])", [ids])
      return rows[0].n === 5
    })
    assert.equal((await db.pool.query('select count(*)::int as n from pgqueuer')).rows[0].n, 0)
  })

  it('aizk enqueues, a PgQueuer worker runs each job exactly once with the JSON bytes', async () => {
    const db = await scenario()
    const worker = startPgqWorker(db.url, ['pgq_side'])
    pgqWorkers.push(worker)
    await worker.queueManagerId
    const ids = (await enqueueMany(db.pool, [0, 1, 2].map((n) => ({ entrypoint: 'pgq_side', payload: { n } })))) as string[]
    for (const id of ids) await worker.waitFor((e) => e.event === 'end' && String(e.id) === id, `PgQueuer end of ${id}`)
    const starts = worker.events.filter((e) => e.event === 'start')
    assert.deepEqual(starts.map((e) => String(e.id)).sort(), [...ids].sort(), 'each job started once')
    assert.deepEqual(
      starts.map((e) => JSON.parse(Buffer.from(String(e.payload_hex), 'hex').toString('utf8')).n).sort(),
      [0, 1, 2],
    )
    await eventually('PgQueuer to log the completions', async () => {
      const { rows } = await db.pool.query("select count(*)::int as n from pgqueuer_log where status = 'successful' and job_id = any($1::bigint[])", [ids])
      return rows[0].n === 3
    })
  })

  it('raw payloads: bytes that are not JSON and a None payload reach a bytes job unchanged', async () => {
    const db = await scenario()
    const raw = Buffer.from([0x00, 0xff, 0x80, 0x7b, 0x22, 0xc3])
    const [rawId, noneId] = idsOf(await pgqEnqueue(db.url, 'interop_bytes', [{ payload: raw }, { payload: null }])) as string[]
    const [jsonNoneId] = idsOf(await pgqOne(db.url, ['enqueue', 'interop_json', '--null'])) as string[]
    const w = startAizkWorker(db, ['interop_bytes', 'interop_json'])
    aizkWorkers.push(w)
    for (const id of [rawId, noneId, jsonNoneId]) await w.waitFor((e) => e.event === 'job:completed' && e.jobId === id, `completion of ${id}`)
    const bytes = await runsOf(db.pool, 'interop_bytes')
    assert.deepEqual(
      bytes.map((r) => [r.job_id, r.payload_hex, r.payload_json]),
      [
        [rawId, hex(raw), null],
        [noneId, null, null],
      ],
    )
    const json = await runsOf(db.pool, 'interop_json')
    assert.deepEqual(json.map((r) => [r.job_id, r.payload_json]), [[jsonNoneId, 'null']], 'a JSON job sees a None payload as null')
  })

  it('aizk enqueues raw bytes and PgQueuer receives them unchanged', async () => {
    const db = await scenario()
    const raw = Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00])
    const worker = startPgqWorker(db.url, ['pgq_bytes'])
    pgqWorkers.push(worker)
    await worker.queueManagerId
    const id = (await enqueue(db.pool, { entrypoint: 'pgq_bytes', payload: raw })) as string
    const started = await worker.waitFor((e) => e.event === 'start' && String(e.id) === id, 'the start')
    assert.equal(started.payload_hex, hex(raw))
  })
})
