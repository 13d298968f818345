import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { JobContext } from '../../src/jobs/queue-job.js'
import { JobRegistry } from '../../src/jobs/registry.js'
import { type ScopedContext, ScopedScheduledJob, SystemScheduledJob } from '../../src/jobs/scheduled-job.js'
import { fanOut } from '../../src/scheduler/fan-out.js'
import { User } from '../../src/scope/user.js'
import { parseSettings } from '../../src/settings.js'
import { A, B, C, fileAppLogin, identity } from '../support/app-login.js'
import { fileDatabase } from '../support/db.js'

const seen: { scopes: readonly string[]; titles: string[]; role: string; narrowInsert: string }[] = []

class FanProbeJob extends ScopedScheduledJob {
  static override defaultCron = '* * * * *'
  async execute(scopes: readonly string[], ctx: ScopedContext): Promise<void> {
    const { rows } = await ctx.db.query<{ title: string }>('select title from document order by title')
    const role = (await ctx.db.query('select current_user::text as r')).rows[0].r
    // A pass for {A, B} trying to write a row scoped {A}: the database must refuse it.
    await ctx.db.query('savepoint narrow')
    const narrowInsert = await ctx.db
      .query("insert into document (scopes, title) values ($1::uuid[], 'narrow')", [[scopes[0]]])
      .then(() => 'inserted')
      .catch((err: Error) => err.message)
    await ctx.db.query('rollback to savepoint narrow')
    seen.push({ scopes, titles: rows.map((r) => r.title), role, narrowInsert })
  }
}
class SweepProbeJob extends SystemScheduledJob {
  static override defaultCron = '* * * * *'
  async execute() {}
}

const db = await fileDatabase()
const app = await fileAppLogin(db)
const settings = identity

before(async () => {
  new JobRegistry().registerModule({ FanProbeJob, SweepProbeJob })
  const write = (scopes: string[], title: string) =>
    User.system(scopes, identity).transaction(app.scoped, (c) => c.query('insert into document (scopes, title) values ($1::uuid[], $2)', [scopes, title]))
  await write([A], 'a')
  await write([A, B], 'ab')
  await write([C], 'c')
  await write([A, B], 'ab2')
})

async function queued(entrypoint: string): Promise<{ dedupe_key: string; priority: number; payload: string }[]> {
  const { rows } = await db.pool.query(
    "select dedupe_key, priority, convert_from(payload, 'utf8') as payload from pgqueuer where entrypoint = $1 order by dedupe_key",
    [entrypoint],
  )
  return rows
}

describe('fan-out', () => {
  it('a tick with three sets enqueues three items with the exact dedupe keys; a second tick enqueues none', async () => {
    const first = await fanOut(FanProbeJob, db.pool, settings)
    assert.deepEqual(first, { name: 'fan_probe', kind: 'scoped', items: 3, enqueued: 3, alreadyQueued: 0 })
    const rows = await queued('aizk_task_fan_probe')
    assert.deepEqual(
      rows.map((r) => r.dedupe_key),
      [`fan_probe:${A}`, `fan_probe:${A},${B}`, `fan_probe:${C}`],
    )
    assert.ok(rows.every((r) => r.priority === 10))
    assert.deepEqual(JSON.parse(rows[1].payload), { scopes: [A, B] })
    const second = await fanOut(FanProbeJob, db.pool, settings)
    assert.deepEqual(second, { name: 'fan_probe', kind: 'scoped', items: 3, enqueued: 0, alreadyQueued: 3 })
    assert.equal((await queued('aizk_task_fan_probe')).length, 3)
  })

  it('a system tick enqueues one item keyed by the name, once while it is live', async () => {
    assert.deepEqual(await fanOut(SweepProbeJob, db.pool, settings), { name: 'sweep_probe', kind: 'system', items: 1, enqueued: 1, alreadyQueued: 0 })
    assert.deepEqual(await fanOut(SweepProbeJob, db.pool, settings), { name: 'sweep_probe', kind: 'system', items: 1, enqueued: 0, alreadyQueued: 1 })
    const rows = await queued('aizk_task_sweep_probe')
    assert.deepEqual(
      rows.map((r) => [r.dedupe_key, r.priority, JSON.parse(r.payload)]),
      [['sweep_probe', 10, {}]],
    )
  })

  it('the queued item runs execute(scopes) inside User.system(scopes), through the app role', async () => {
    const ctx = {
      jobId: '1',
      entrypoint: FanProbeJob.entrypoint,
      attempts: 0,
      headers: {},
      signal: new AbortController().signal,
      pool: app.scoped,
      settings: parseSettings({}, { overrides: identity }),
    } satisfies JobContext
    const payload = FanProbeJob.payload.parse({ scopes: [B, A] })
    await new FanProbeJob().handle(payload, ctx)
    assert.equal(seen.length, 1)
    assert.deepEqual(seen[0].scopes, [A, B])
    assert.equal(seen[0].role, 'aizk_app')
    assert.deepEqual(seen[0].titles, ['a', 'ab', 'ab2'])
    assert.match(seen[0].narrowInsert, /row-level security/)
  })

  it('a scoped payload without scopes fails validation', () => {
    assert.equal(FanProbeJob.payload.safeParse({ scopes: [] }).success, false)
    assert.equal(FanProbeJob.payload.safeParse({ scopes: ['nope'] }).success, false)
  })
})
