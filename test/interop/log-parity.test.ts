/**
 * With AIZK_QUEUE_LOG_PARITY aizk writes `queued` and `picked` log rows, so PgQueuer's job_status
 * and duration percentiles see aizk's jobs; without it a requeued job reads `failed` to PgQueuer
 * until it is picked (the documented default).
 */
import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { runCli } from '../support/cli.js'
import type { TestDatabase } from '../support/db.js'
import { pgqOne } from '../support/interop/pgqueuer.js'
import { interopFile, it } from '../support/interop/scenario.js'
import { waitFor } from '../support/wait-for.js'

const { scenario, aizkWorker } = interopFile()

const cli = (db: TestDatabase, args: string[], env: Record<string, string> = {}) => runCli(args, { env: { AIZK_DATABASE_URL: db.url, ...env } })

describe('AIZK_QUEUE_LOG_PARITY and PgQueuer', () => {
  it("with AIZK_QUEUE_LOG_PARITY PgQueuer's job_status and percentiles see aizk's jobs", async () => {
    const db = await scenario()
    const ids = (await enqueueMany(
      db.pool,
      [1, 2, 3].map((n) => ({ entrypoint: 'interop_json', payload: { n } })),
      { logQueued: true },
    )) as string[]
    const queued = await pgqOne(db.url, ['job-status', ...ids])
    assert.deepEqual(queued.statuses, Object.fromEntries(ids.map((id) => [id, 'queued'])))
    aizkWorker(db, ['interop_json'], { AIZK_QUEUE_LOG_PARITY: 'true' })
    await waitFor('the completions to be written', async () => {
      const { rows } = await db.pool.query("select count(*)::int as n from pgqueuer_log where status = 'successful' and job_id = any($1::bigint[])", [ids])
      return rows[0].n === 3
    })
    const finished = await pgqOne(db.url, ['job-status', ...ids])
    assert.deepEqual(finished.statuses, Object.fromEntries(ids.map((id) => [id, 'successful'])))
    const percentiles = await pgqOne(db.url, ['percentiles'])
    assert.deepEqual(percentiles.rows, [{ entrypoint: 'interop_json', completed: 3 }])
  })

  it('a requeued held job reads failed to PgQueuer by default, queued with parity', async () => {
    const db = await scenario()
    const ids = (await enqueueMany(
      db.pool,
      [1, 2].map((n) => ({ entrypoint: 'interop_hold', payload: { n }, dedupeKey: `h${n}` })),
    )) as string[]
    const w = aizkWorker(db, ['interop_hold'])
    for (const id of ids) await w.waitFor((e) => e.event === 'job:held' && e.jobId === id, `the hold of ${id}`)
    w.kill('SIGTERM')
    await w.exited
    const [plain, parity] = ids
    assert.equal((await cli(db, ['requeue', '--id', plain, '--yes'])).code, 0)
    assert.equal((await cli(db, ['requeue', '--id', parity, '--yes'], { AIZK_QUEUE_LOG_PARITY: 'true' })).code, 0)
    const statuses = await pgqOne(db.url, ['job-status', ...ids])
    assert.deepEqual(statuses.statuses, { [plain]: 'failed', [parity]: 'queued' })
  })
})
