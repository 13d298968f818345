/**
 * What aizk status reads from PgQueuer's rows: throughput counts finished jobs only (PgQueuer also
 * logs `queued` and `picked`); a PgQueuer worker is listed as foreign and its slow heartbeat is no
 * stale pick; only aizk's own schedules are judged unless --include-foreign-schedules.
 */
import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { runCli } from '../support/cli.js'
import type { TestDatabase } from '../support/db.js'
import { idsOf, pgq, pgqEnqueue } from '../support/interop/pgqueuer.js'
import { interopFile, it } from '../support/interop/scenario.js'
import { waitFor } from '../support/wait-for.js'

const { scenario, pgqWorker } = interopFile()

const cli = (db: TestDatabase, args: string[], env: Record<string, string> = {}) => runCli(args, { env: { AIZK_DATABASE_URL: db.url, ...env } })
const statusJson = async (db: TestDatabase, env: Record<string, string> = {}) => {
  const res = await cli(db, ['status', '--json'], env)
  assert.equal(res.code, 0, res.stderr)
  return JSON.parse(res.stdout)
}

describe("aizk status over PgQueuer's rows", () => {
  it('throughput counts 20 held and 10 finished PgQueuer jobs as 30, not one per log row', async () => {
    const db = await scenario()
    const held = idsOf(
      await pgqEnqueue(
        db.url,
        'py_held',
        Array.from({ length: 20 }, (_, n) => ({ json: { n } })),
      ),
    ) as string[]
    const done = idsOf(
      await pgqEnqueue(
        db.url,
        'py_ok',
        Array.from({ length: 10 }, (_, n) => ({ json: { n } })),
      ),
    ) as string[]
    pgqWorker(db, ['py_held'], { fail: true, hold: true, batchSize: 20 })
    pgqWorker(db, ['py_ok'], { batchSize: 10 })
    await waitFor(
      'PgQueuer to finish all 30',
      async () => {
        const { rows } = await db.pool.query(
          "select count(*)::int as n from pgqueuer_log where status in ('failed', 'successful') and job_id = any($1::bigint[])",
          [[...held, ...done]],
        )
        return rows[0].n === 30
      },
      90_000,
    )
    const logRows = (await db.pool.query('select count(*)::int as n from pgqueuer_log')).rows[0].n
    assert.equal(logRows, 90, 'PgQueuer wrote queued, picked and a final row for each job')
    const stats = await statusJson(db)
    assert.equal(stats.throughput.lastMinute, 30)
    assert.equal(stats.throughput.failedLastMinute, 20)
  })

  it('lists a PgQueuer worker as foreign, without a stale pick; only aizk schedules are judged', async () => {
    const db = await scenario()
    const py = pgqWorker(db, ['py_long'], { sleep: 30, heartbeatTimeout: 10 })
    const qm = await py.queueManagerId
    const [id] = idsOf(await pgqEnqueue(db.url, 'py_long', [{ json: {} }])) as string[]
    await py.waitFor((e) => e.event === 'start' && String(e.id) === id, 'the PgQueuer start')
    await waitFor('the pick heartbeat to be older than 1 s', async () => {
      const { rows } = await db.pool.query("select 1 from pgqueuer where id = $1 and heartbeat < now() - interval '1 second'", [id])
      return rows.length > 0
    })
    const env = { AIZK_HEARTBEAT_TIMEOUT_SECONDS: '1', AIZK_HEARTBEAT_INTERVAL_SECONDS: '0.3' }
    const stats = await statusJson(db, env)
    assert.deepEqual(
      stats.workers.foreign.map((w: { queueManagerId: string; entrypoints: string[]; picked: number }) => [w.queueManagerId, w.entrypoints, w.picked]),
      [[qm, ['py_long'], 1]],
    )
    assert.equal(stats.stalePicks.count, 0, "a PgQueuer pick is judged by the foreign timeout, not aizk's")
    assert.equal(stats.suspectPicks.count, 1, "silent past aizk's timeout: suspect, not stale")

    // PgQueuer's own scheduler registers its tick; then no PgQueuer scheduler runs for an hour.
    await pgq(db.url, ['schedule', 'pgq_tick', '* * * * *'])
    await db.pool.query(
      "update pgqueuer_schedules set created = now() - interval '1 hour', last_run = now() - interval '1 hour', next_run = now() - interval '59 minutes' where entrypoint = 'pgq_tick'",
    )
    // Judged with aizk's default heartbeat timeout, within which PgQueuer heartbeats (every 5 s): no suspect pick.
    const calm = { AIZK_HEARTBEAT_TIMEOUT_SECONDS: '30', AIZK_HEARTBEAT_INTERVAL_SECONDS: '0.3' }
    const withSchedule = await statusJson(db, calm)
    assert.equal(withSchedule.suspectPicks.count, 0)
    const tick = withSchedule.schedules.find((s: { entrypoint: string }) => s.entrypoint === 'pgq_tick')
    assert.deepEqual([tick.foreign, tick.overdue], [true, true])
    const check = await cli(db, ['status', '--check'], calm)
    assert.equal(check.code, 0, check.stderr)
    const strict = await cli(db, ['status', '--check', '--include-foreign-schedules'], calm)
    assert.equal(strict.code, 7)
    assert.match(strict.stderr, /schedule pgq_tick/)
  })
})
