/**
 * One outcome the database cannot take as given never blocks a worker's other outcomes: an
 * error text with a NUL character (jsonb refuses it) is stored escaped, and a row the database
 * refuses for a reason of its own is isolated from its batch and written in a fallback form.
 * A hold or a retry is announced only once written. Real PostgreSQL, real worker processes.
 */
import assert from 'node:assert/strict'
import { after, afterEach, before, describe, it } from 'node:test'
import { enqueue } from '../../src/queue/enqueue.js'
import type { HoldItem, LastError, RetryItem } from '../../src/queue/retry.js'
import { OutcomeBuffer } from '../../src/worker/outcomes.js'
import { fileDatabase } from '../support/db.js'
import { waitFor } from '../support/wait-for.js'
import { FIXTURE_TABLES, fastWorkerEnv, killAll, type SpawnedWorker, spawnWorker } from '../support/worker-process.js'

const db = await fileDatabase()
let workers: SpawnedWorker[] = []
const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => (await db.pool.query(sql, params)).rows as T[]

before(async () => {
  await db.pool.query(FIXTURE_TABLES)
})
afterEach(async () => {
  await killAll(workers)
  workers = []
  await db.pool.query('TRUNCATE pgqueuer, pgqueuer_log, test_runs, aizk_worker')
})

type Row = { id: string; status: string; queue_manager_id: string | null; headers: { aizk?: { lastError?: { message: string } } } | null }
const rowOf = async (id: string) => (await q<Row>('select id::text, status, queue_manager_id::text, headers from pgqueuer where id = $1', [id]))[0]

describe('a worker with an outcome jsonb refuses', () => {
  it('holds a NUL payload from a PgQueuer producer and a NUL handler error, and every hold after them; SIGTERM leaves nothing picked', async () => {
    // What a PgQueuer producer writes: raw bytes, never checked as JSON.
    const [{ id: nulPayload }] = await q<{ id: string }>(
      "insert into pgqueuer (priority, entrypoint, payload, status) values (0, 'test_strict', $1, 'queued') returning id::text",
      [Buffer.from('abc\0def')],
    )
    const w = spawnWorker(fastWorkerEnv(db.url), ['--entrypoint', 'test_strict', '--entrypoint', 'test_nul_error'])
    workers.push(w)
    await w.waitFor((e) => e.event === 'job:held' && e.jobId === nulPayload, 'the hold of the NUL payload', 20_000)
    const nulError = (await enqueue(db.pool, { entrypoint: 'test_nul_error', payload: {} })) as string
    const clean = (await enqueue(db.pool, { entrypoint: 'test_strict', payload: { n: 'not a number' } })) as string
    await waitFor(
      'all three held in the table',
      async () => (await q("select 1 from pgqueuer where id = any($1::bigint[]) and status = 'failed'", [[nulPayload, nulError, clean]])).length === 3,
      20_000,
    )
    const payloadRow = await rowOf(nulPayload)
    assert.match(String(payloadRow.headers?.aizk?.lastError?.message), /abc\\0def/, 'the NUL is stored escaped')
    const errorRow = await rowOf(nulError)
    assert.equal(errorRow.headers?.aizk?.lastError?.message, 'bad byte \\0 in attempt 1')
    const logs = await q<{ job_id: string; message: string }>(
      "select job_id::text, traceback->>'exception_message' as message from pgqueuer_log where status = 'failed' order by job_id",
    )
    assert.deepEqual(logs.map((l) => l.job_id).sort(), [nulPayload, nulError, clean].sort())
    assert.ok(logs.every((l) => !l.message.includes('\0')))
    const retried = await w.waitFor((e) => e.event === 'job:retried' && e.jobId === nulError, 'the retry of the NUL error')
    assert.equal(retried.error, 'bad byte \\0 in attempt 0')
    assert.equal(await w.stop(), 0, w.stderr())
    assert.doesNotMatch(w.stderr(), /could not be written/)
    assert.equal((await q("select 1 from pgqueuer where status = 'picked'")).length, 0)
  })
})

describe('the outcome buffer isolates a refused row', () => {
  before(async () => {
    // A refusal of the row's own content (a trigger), as a constraint or a size limit would be.
    await db.pool.query(`
      create function test_refuse() returns trigger language plpgsql as $$
      begin
        if new.headers->'aizk'->'lastError'->>'message' like '%poison%' then raise exception 'a refused message'; end if;
        if new.payload = convert_to('always', 'UTF8') and new.status <> 'picked' then raise exception 'refused whatever it says'; end if;
        return new;
      end $$;
      create trigger test_refuse before update on pgqueuer for each row execute function test_refuse();`)
  })
  after(async () => {
    await db.pool.query('drop trigger test_refuse on pgqueuer; drop function test_refuse()')
  })

  it('writes the rest of the batch, the refused row in its fallback form, and announces only what was written', async () => {
    const me = crypto.randomUUID()
    const payloads = ['a', 'b', 'c', 'always', 'd', 'e']
    const ids = (
      await q<{ id: string }>(
        `insert into pgqueuer (priority, entrypoint, payload, status, queue_manager_id, heartbeat)
         select 0, 'test_fail', convert_to(p, 'UTF8'), 'picked', $1, now() from unnest($2::text[]) with ordinality as t(p, n) order by n returning id::text`,
        [me, payloads],
      )
    ).map((r) => r.id)
    const [a, b, c, always, d, e] = ids
    const errors: unknown[] = []
    const announced: string[] = []
    const buffer = new OutcomeBuffer(
      db.pool,
      me,
      { hasSlot: false },
      (_where, err) => errors.push(err),
      () => {},
    )
    const error = (message: string): LastError => ({ type: 'Error', message, at: new Date().toISOString(), attempt: 1 })
    const hold = (id: string, message: string): HoldItem => ({
      id,
      attemptsBump: 1,
      error: error(message),
      record: {
        job_id: id,
        timestamp: new Date().toISOString(),
        exception_type: 'Error',
        exception_message: message,
        traceback: message,
        additional_context: null,
      },
    })
    const retry = (id: string, message: string): RetryItem => ({ id, delayMs: 60_000, error: error(message) })
    for (const [id, message] of [
      [a, 'fine'],
      [b, 'poison here'],
      [c, 'fine'],
      [always, 'fine'],
      [d, 'fine'],
    ] as const) {
      buffer.hold(hold(id, message), (written) => announced.push(`${written.id}:${written.error.message}`))
    }
    buffer.retry(retry(e, 'poison again'), (written) => announced.push(`${written.id}:${written.error.message}`))
    await buffer.drain(Date.now() + 10_000)
    buffer.close()

    for (const id of [a, c, d]) assert.equal((await rowOf(id)).headers?.aizk?.lastError?.message, 'fine')
    const poisoned = await rowOf(b)
    assert.equal(poisoned.status, 'failed')
    assert.match(String(poisoned.headers?.aizk?.lastError?.message), /could not be stored as it was .*a refused message/)
    assert.doesNotMatch(String(poisoned.headers?.aizk?.lastError?.message), /poison here/)
    const retried = await rowOf(e)
    assert.equal(retried.status, 'queued')
    assert.match(String(retried.headers?.aizk?.lastError?.message), /could not be stored as it was/)
    assert.deepEqual(await rowOf(always).then((r) => [r.status, r.queue_manager_id]), ['picked', me], 'refused in every form: left picked')
    const logged = await q<{ job_id: string }>("select job_id::text from pgqueuer_log where status = 'failed' order by job_id")
    assert.deepEqual(
      logged.map((r) => r.job_id),
      [a, b, c, d],
    )
    assert.deepEqual(announced.map((s) => s.split(':')[0]).sort(), [a, b, c, d, e].sort(), 'the refused row is not announced')
    assert.equal(errors.length, 1)
    assert.match(String((errors[0] as Error).message), new RegExp(`job ${always} was refused`))
  })
})
