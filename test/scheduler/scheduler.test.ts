import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { buildServices } from '../../src/app/run-worker.js'
import type { Database } from '../../src/db/database.js'
import { WorkerEvents } from '../../src/events.js'
import { JobRegistry } from '../../src/jobs/registry.js'
import { SystemScheduledJob } from '../../src/jobs/scheduled-job.js'
import { Scheduler } from '../../src/scheduler/scheduler.js'
import { parseSettings, type Settings } from '../../src/settings.js'
import { Worker } from '../../src/worker/worker.js'
import { createTestDatabase, fileDatabase } from '../support/db.js'

class MinutelyProbeJob extends SystemScheduledJob {
  static override defaultCron = '* * * * *'
  async execute() {}
}
class SecondlyProbeJob extends SystemScheduledJob {
  static override defaultCron = '*/1 * * * * *'
  async execute() {}
}
class DormantProbeJob extends SystemScheduledJob {
  static override defaultCron = '* * * * *'
  static override defaultEnabled = false
  async execute() {}
}
class WeeklyProbeJob extends SystemScheduledJob {
  static override defaultCron = '0 4 * * 0'
  async execute() {}
}

const db = await fileDatabase()
const registry = new JobRegistry()
let settings: Settings

before(async () => {
  registry.registerModule({ MinutelyProbeJob, SecondlyProbeJob, DormantProbeJob, WeeklyProbeJob })
  settings = parseSettings({})
})

function scheduler(overrides: Partial<Settings> = {}, events = new WorkerEvents()) {
  return new Scheduler({ pool: db.pool, registry, settings: { ...settings, ...overrides }, events })
}

async function row(entrypoint: string) {
  const { rows } = await db.pool.query('select * from pgqueuer_schedules where entrypoint = $1', [entrypoint])
  return rows
}

describe('Scheduler', () => {
  it('keeps one schedules row per enabled job, six fields stored seconds-last; none for a disabled job', async () => {
    const s = scheduler()
    await s.ensure()
    await s.ensure()
    const { rows } = await db.pool.query('select entrypoint, expression, status from pgqueuer_schedules order by entrypoint')
    assert.deepEqual(rows, [
      { entrypoint: 'aizk_cron_minutely_probe', expression: '* * * * *', status: 'queued' },
      { entrypoint: 'aizk_cron_secondly_probe', expression: '* * * * * */1', status: 'queued' },
      { entrypoint: 'aizk_cron_weekly_probe', expression: '0 4 * * 0', status: 'queued' },
    ])
  })

  it('a tick missed while every worker was down fires once on return, not once per missed tick', async () => {
    // The minutely cron's next tick must not come due between the two runDue calls below.
    const toNextMinute = 60_000 - (Date.now() % 60_000)
    if (toNextMinute < 2_000) await sleep(toNextMinute + 50)
    await db.pool.query("update pgqueuer_schedules set next_run = now() - interval '1 hour' where entrypoint = 'aizk_cron_minutely_probe'")
    const fired = await scheduler().runDue()
    const minutely = fired.filter((f) => f.name === 'minutely_probe')
    assert.equal(minutely.length, 1)
    assert.deepEqual({ enqueued: minutely[0].enqueued, kind: minutely[0].kind }, { enqueued: 1, kind: 'system' })
    const [r] = await row('aizk_cron_minutely_probe')
    assert.equal(r.status, 'queued')
    assert.ok(r.last_run)
    assert.ok(r.next_run > new Date(Date.now() - 1000), 'next_run jumped past now')
    assert.equal((await scheduler().runDue()).filter((f) => f.name === 'minutely_probe').length, 0)
    const { rows } = await db.pool.query("select count(*)::int as n from pgqueuer where entrypoint = 'aizk_task_minutely_probe'")
    assert.equal(rows[0].n, 1)
  })

  it('a disabled job never fires, even when a due row for it exists', async () => {
    await db.pool.query(
      "insert into pgqueuer_schedules (expression, entrypoint, next_run) values ('* * * * *', 'aizk_cron_dormant_probe', now() - interval '1 hour')",
    )
    const fired = await scheduler().runDue()
    assert.equal(fired.filter((f) => f.name === 'dormant_probe').length, 0)
    const off = await scheduler({ minutelyProbeCron: 'off' }).runDue()
    assert.equal(off.filter((f) => f.name === 'minutely_probe').length, 0)
    const [r] = await row('aizk_cron_dormant_probe')
    assert.equal(r.status, 'queued')
    assert.equal(r.last_run, null)
  })

  it('leaves a picked row with a live heartbeat alone and reclaims one whose heartbeat is 30 s old', async () => {
    await db.pool.query(
      "update pgqueuer_schedules set status = 'picked', heartbeat = now(), next_run = now() - interval '1 minute' where entrypoint = 'aizk_cron_minutely_probe'",
    )
    assert.equal((await scheduler().runDue()).filter((f) => f.name === 'minutely_probe').length, 0)
    await db.pool.query("update pgqueuer_schedules set heartbeat = now() - interval '31 seconds' where entrypoint = 'aizk_cron_minutely_probe'")
    const fired = await scheduler().runDue()
    assert.equal(fired.filter((f) => f.name === 'minutely_probe').length, 1)
    assert.equal((await row('aizk_cron_minutely_probe'))[0].status, 'queued')
  })

  it('reads crons in UTC unless a timezone is set', async () => {
    const utc = (await scheduler().upcomingFires()).find((f) => f.name === 'weekly_probe')
    assert.match(utc?.nextRun ?? '', /T04:00:00\.000Z$/)
    const local = await scheduler({ timezone: 'Asia/Kolkata' }).upcomingFires(new Date('2024-01-01T00:00:00Z'))
    const dormant = local.find((f) => f.name === 'dormant_probe')
    assert.deepEqual({ enabled: dormant?.enabled, nextRun: dormant?.nextRun }, { enabled: false, nextRun: null })
    const db2 = await createTestDatabase()
    try {
      const s = new Scheduler({ pool: db2.pool, registry, settings: { ...settings, timezone: 'Asia/Kolkata' }, events: new WorkerEvents() })
      await s.ensure()
      const { rows } = await db2.pool.query("select next_run from pgqueuer_schedules where entrypoint = 'aizk_cron_weekly_probe'")
      const next: Date = rows[0].next_run
      assert.deepEqual([next.getUTCDay(), next.getUTCHours(), next.getUTCMinutes()], [6, 22, 30])
    } finally {
      await db2.drop()
    }
  })

  it('start() fires due ticks and emits schedule:fired; stop() ends the loop', async () => {
    const events = new WorkerEvents()
    const s = scheduler({}, events)
    const fired: string[] = []
    const twoFires = new Promise<void>((resolve) => {
      events.on('schedule:fired', (e) => {
        if (e.name !== 'secondly_probe') return
        fired.push(e.scheduledFor)
        if (fired.length === 2) resolve()
      })
    })
    await s.start()
    await twoFires
    await s.stop()
    assert.notEqual(fired[0], fired[1])
  })
})

describe('Scheduler schedule rows over time', () => {
  it('replaces the row when a cron setting changes and removes it when the job is disabled', async () => {
    await scheduler().ensure()
    assert.deepEqual(
      (await row('aizk_cron_weekly_probe')).map((r) => r.expression),
      ['0 4 * * 0'],
    )
    await scheduler({ weeklyProbeCron: '0 5 * * 0' }).ensure()
    assert.deepEqual(
      (await row('aizk_cron_weekly_probe')).map((r) => r.expression),
      ['0 5 * * 0'],
    )
    await scheduler({ weeklyProbeCron: '0 5 * * 0', weeklyProbeEnabled: false }).ensure()
    assert.deepEqual(await row('aizk_cron_weekly_probe'), [])
  })
})

describe('A worker bound to some entrypoints', () => {
  it("keeps and fires only its entrypoints' schedules, leaving others' due ticks to their workers", async () => {
    await db.pool.query('truncate pgqueuer, pgqueuer_schedules')
    const worker = new Worker({
      pool: db.pool,
      registry,
      settings,
      events: new WorkerEvents(),
      entrypoints: ['aizk_task_weekly_probe'],
      batchSize: 1,
      concurrency: 1,
    })
    const services = await buildServices({ worker, db: { pool: db.pool } as Database, settings, events: new WorkerEvents(), registry })
    const s = services.find((x): x is Scheduler => x instanceof Scheduler)
    assert.ok(s, 'the worker runs a scheduler')
    await s.ensure()
    assert.deepEqual((await db.pool.query('select entrypoint from pgqueuer_schedules')).rows, [{ entrypoint: 'aizk_cron_weekly_probe' }])
    await db.pool.query(
      "insert into pgqueuer_schedules (expression, entrypoint, next_run) values ('* * * * *', 'aizk_cron_minutely_probe', now() - interval '1 hour')",
    )
    await db.pool.query("update pgqueuer_schedules set next_run = now() - interval '1 hour'")
    assert.deepEqual(
      (await s.runDue()).map((f) => f.name),
      ['weekly_probe'],
    )
    const { rows } = await db.pool.query('select entrypoint from pgqueuer order by entrypoint')
    assert.deepEqual(rows, [{ entrypoint: 'aizk_task_weekly_probe' }], 'no tick queued for an entrypoint this worker does not run')
    assert.equal((await row('aizk_cron_minutely_probe'))[0].last_run, null)
  })
})
