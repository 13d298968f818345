/**
 * A rollback, or an old pod restarting mid-rollout: this build's worker on a schema a newer aizk
 * installed (a migration and a definition it has no file for, a definition it has another version
 * of) starts, is ready, and runs jobs (docs/schema.md#a-newer-schema-under-an-older-aizk).
 */
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { fileDatabase } from '../support/db.js'
import { waitFor } from '../support/wait-for.js'
import { FIXTURE_TABLES, fastWorkerEnv, freePort, killAll, spawnWorker, type WorkerProcess } from '../support/worker-process.js'

const db = await fileDatabase()
const workers: WorkerProcess[] = []
before(async () => {
  await db.pool.query(FIXTURE_TABLES)
  await db.pool.query("insert into aizk_schema_version (version, name, checksum) values (9001, '9001_from_a_newer_release', 'newer')")
  await db.pool.query("insert into aizk_schema_definition (name, checksum) values ('functions/aizk_from_a_newer_release', 'newer')")
  await db.pool.query("update aizk_schema_definition set checksum = 'newer' where name = 'functions/aizk_complete'")
})
db.beforeDrop(async () => {
  await killAll(workers)
})

describe('this build on a schema a newer aizk installed', () => {
  it('starts saying so, answers /readyz 200, and completes jobs', async () => {
    const port = await freePort()
    const w = spawnWorker(fastWorkerEnv(db.url, { AIZK_WORKER_HEALTH_PORT: String(port) }), ['--entrypoint', 'test_record'])
    workers.push(w)
    await w.waitFor((e) => e.event === 'worker:started', 'the start')
    assert.match(
      w.stderr() + w.rawStdout(),
      /installed by a newer aizk \(migration 9001_from_a_newer_release, definition functions\/aizk_from_a_newer_release\)/,
    )
    const ids = await enqueueMany(
      db.pool,
      Array.from({ length: 20 }, (_, i) => ({ entrypoint: 'test_record', payload: { tag: String(i) } })),
    )
    await waitFor('20 runs', async () => (await db.pool.query<{ n: number }>('select count(*)::int n from test_runs')).rows[0].n === 20)
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`)
    const body = await ready.text()
    assert.equal(ready.status, 200, body)
    assert.match(body, /installed by a newer aizk/)
    const logged = await db.pool.query<{ n: number }>("select count(*)::int n from pgqueuer_log where status = 'successful' and job_id = any($1::bigint[])", [
      ids,
    ])
    assert.equal(logged.rows[0].n, 20)
    assert.equal(await w.stop(), 0)
  })
})
