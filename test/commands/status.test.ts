import assert from 'node:assert/strict'
import { before, beforeEach, describe, it } from 'node:test'
import { binPath, cleanEnv, runCli } from '../support/cli.js'
import { cliEnv } from '../support/commands/env.js'
import { insertHeld, insertQueued } from '../support/commands/queue-rows.js'
import { fileDatabase } from '../support/db.js'
import { lastFrameOf, runInPty, stripAnsi } from '../support/pty.js'
import { waitFor } from '../support/wait-for.js'

const db = await fileDatabase()
let env: Record<string, string>

before(async () => {
  env = cliEnv(db.url)
})
beforeEach(async () => {
  await db.pool.query('TRUNCATE pgqueuer, pgqueuer_log, aizk_worker, pgqueuer_schedules, aizk_throughput')
})

async function seed(): Promise<void> {
  await insertQueued(db.pool, 'cli_strict', 12, { priority: 42 })
  await insertQueued(db.pool, 'cli_noop', 3)
  await insertHeld(db.pool, 'cli_noop', 2, { lastError: 'TypeError: boom', cycles: 1 })
  await db.pool.query(
    `INSERT INTO aizk_worker (queue_manager_id, host, pid, version, entrypoints) VALUES ('33333333-3333-4333-8333-333333333333', 'host-a', 4242, '0.1.0', '{cli_noop,cli_strict}')`,
  )
  await db.pool.query(
    `UPDATE pgqueuer SET status = 'picked', queue_manager_id = '33333333-3333-4333-8333-333333333333' WHERE id IN (SELECT id FROM pgqueuer WHERE entrypoint = 'cli_strict' ORDER BY id LIMIT 2)`,
  )
  await db.pool.query(`INSERT INTO pgqueuer_schedules (expression, entrypoint, next_run) VALUES ('0 1 * * *', 'aizk_cron_cleanup', now() + interval '3 hours')`)
}

describe('aizk status', () => {
  it('--json is one document with every section', async () => {
    await seed()
    const res = await runCli(['status', '--json'], { env })
    assert.equal(res.code, 0, res.stderr)
    const doc = JSON.parse(res.stdout)
    assert.deepEqual(Object.keys(doc).sort(), [
      'entrypoints',
      'generatedAt',
      'groups',
      'health',
      'held',
      'integrity',
      'log',
      'memory',
      'paused',
      'schedules',
      'stalePicks',
      'suspectPicks',
      'throughput',
      'totals',
      'workers',
    ])
    assert.deepEqual(doc.memory, { chunksPendingProjection: 0, dirtyProfiles: 0, gates: [] })
    assert.deepEqual(doc.totals, { queued: 13, picked: 2, held: 2 })
    const strict = doc.entrypoints.find((e: { entrypoint: string }) => e.entrypoint === 'cli_strict')
    assert.deepEqual([strict.queued, strict.picked, strict.concurrencyLimit, strict.priorities], [10, 2, 3, [42]])
    assert.equal(doc.held.jobs[0].lastError, 'TypeError: boom')
    assert.equal(doc.held.jobs[0].cycles, 1)
    assert.deepEqual([doc.workers.alive, doc.workers.list[0].host, doc.workers.list[0].picked], [1, 'host-a', 2])
    assert.equal(doc.schedules[0].entrypoint, 'aizk_cron_cleanup')
    assert.equal(doc.schedules[0].enabled, true, 'the registry knows the cleanup job is enabled')
    assert.equal(doc.health.healthy, false)
  })

  it('--once prints one plain frame (also what a pipe gets without flags)', async () => {
    await seed()
    for (const args of [['status', '--once'], ['status']]) {
      const res = await runCli(args, { env })
      assert.equal(res.code, 0, res.stderr)
      assert.ok(!res.stdout.includes('\u001b['), 'no escape codes')
      assert.match(res.stdout, /^queued 13 · picked 2 · held 2/m)
      assert.match(res.stdout, /^cli_strict\s+42\s+10\s+2\/3\s+0\s+\S+\s+0\/s$/m)
      assert.match(res.stdout, /^\s*\d+\s+cli_noop\s+1\s+.*TypeError: boom$/m)
      assert.match(res.stdout, /host-a\s+4242\s+alive\s+2/)
      assert.match(res.stdout, /aizk_cron_cleanup\s+0 1 \* \* \*\s+in (?:2h59m|3h00m)/)
      assert.match(res.stdout, /^MEMORY chunks pending projection 0 · dirty profiles 0$/m)
    }
  })

  it('--check: 0 when healthy, 7 with the reasons when not', async () => {
    const ok = await runCli(['status', '--check'], { env })
    assert.equal(ok.code, 0, ok.stderr)
    assert.equal(ok.stdout.trim(), 'healthy')
    const okJson = await runCli(['status', '--check', '--json'], { env })
    assert.deepEqual(JSON.parse(okJson.stdout), { healthy: true, problems: [] })

    await seed()
    await db.pool.query(`UPDATE pgqueuer SET heartbeat = now() - interval '10 minutes' WHERE status = 'picked'`)
    await db.pool.query(
      `INSERT INTO pgqueuer_schedules (expression, entrypoint, next_run, last_run) VALUES ('* * * * *', 'aizk_cron_chunk_dispatch', now() - interval '5 minutes', now() - interval '5 minutes')`,
    )
    const bad = await runCli(['status', '--check'], { env })
    assert.equal(bad.code, 7, bad.stderr)
    assert.match(bad.stderr, /2 picked job\(s\) have a heartbeat older than 30s/)
    assert.match(bad.stderr, /2 held job\(s\), over the threshold of 0/)
    assert.match(bad.stderr, /schedule aizk_cron_chunk_dispatch \(\* \* \* \* \*\) has not fired for \d+s, over twice its period of 60s/)
    const json = await runCli(['status', '--check', '--json'], { env })
    assert.equal(json.code, 7)
    const doc = JSON.parse(json.stdout)
    assert.equal(doc.error.code, 'unhealthy')
    assert.deepEqual(
      doc.error.details.map((p: { code: string }) => p.code),
      ['stale_picks', 'held_over_threshold', 'cron_overdue'],
    )
  })

  it('a foreign pick whose owner has been silent past the heartbeat timeout is suspect: shown, and unhealthy, long before the foreign timeout', async () => {
    await insertQueued(db.pool, 'cli_noop', 3)
    const dead = '44444444-4444-4444-8444-444444444444'
    const alive = '55555555-5555-4555-8555-555555555555'
    // A dead PgQueuer worker's pick (silent 2 minutes), and a live one's: one old pick beside a fresh one.
    await db.pool.query(
      `UPDATE pgqueuer SET status = 'picked', queue_manager_id = v.qm::uuid, heartbeat = now() - v.age * interval '1 second'
         FROM (SELECT id, (ARRAY[$1, $2, $2])[row_number() OVER (ORDER BY id)] AS qm, (ARRAY[120, 120, 1])[row_number() OVER (ORDER BY id)] AS age
                 FROM pgqueuer WHERE entrypoint = 'cli_noop') v
        WHERE pgqueuer.id = v.id`,
      [dead, alive],
    )
    const res = await runCli(['status', '--json'], { env })
    assert.equal(res.code, 0, res.stderr)
    const doc = JSON.parse(res.stdout)
    assert.equal(doc.stalePicks.count, 0, 'not stale: the foreign timeout (600 s) has not passed')
    assert.equal(doc.suspectPicks.count, 1)
    assert.equal(doc.suspectPicks.jobs[0].queueManagerId, dead)
    const suspect = Object.fromEntries(doc.workers.foreign.map((f: { queueManagerId: string; suspect: boolean }) => [f.queueManagerId, f.suspect]))
    assert.deepEqual(suspect, { [dead]: true, [alive]: false })
    const text = await runCli(['status', '--once'], { env })
    assert.match(text.stdout, /suspect picks 1\)/)
    assert.match(text.stdout, /SUSPECT ID/)
    const check = await runCli(['status', '--check', '--json'], { env })
    assert.equal(check.code, 7, check.stderr)
    const problems = JSON.parse(check.stdout).error.details
    assert.deepEqual(
      problems.map((p: { code: string }) => p.code),
      ['suspect_picks'],
    )
    assert.match(problems[0].message, /no heartbeat from it for over 30s .*picked again only after 600s/)
  })

  it('--max-held and AIZK_STATUS_HELD_THRESHOLD tolerate held jobs', async () => {
    await insertHeld(db.pool, 'cli_noop', 3)
    assert.equal((await runCli(['status', '--check'], { env })).code, 7)
    assert.equal((await runCli(['status', '--check', '--max-held', '3'], { env })).code, 0)
    assert.equal((await runCli(['status', '--check'], { env: { ...env, AIZK_STATUS_HELD_THRESHOLD: '5' } })).code, 0)
  })

  it('bad input is exit 2', async () => {
    for (const args of [
      ['status', '--max-held=-1'],
      ['status', '--interval', '0'],
      ['status', '--watch'],
    ]) {
      const res = await runCli(args, { env })
      assert.equal(res.code, 2, `${args.join(' ')}: ${res.stderr}`)
    }
  })

  it('draws the live dashboard in a real terminal; tab and arrows move panes, every key of a burst counts, q leaves', async () => {
    await seed()
    const pty = runInPty([process.execPath, binPath, 'status'], { env: cleanEnv(env), cols: 140, rows: 60 })
    try {
      // A frame arrives in several writes: wait until the last pane of the first one (workers) is drawn.
      await waitFor('the first whole frame', () => /▸ Jobs \(2\)[\s\S]*Workers \(1\)[\s\S]*host-a/.test(lastFrameOf(pty.output(), 'aizk status')), {
        timeoutMs: 20_000,
        detail: () => `the terminal shows:\n${stripAnsi(pty.output()).slice(-3000)}`,
      })
      const frame = lastFrameOf(pty.output(), 'aizk status')
      assert.match(frame, /queued 13 · picked 2 · held 2/)
      assert.match(frame, /cli_strict\s+42\s+10\s+2\/3/)
      assert.match(frame, /TypeError: boom/)
      assert.match(frame, /host-a/)
      // Keys sent in a burst all count (issue 16): three tabs in one write, jobs -> schedules.
      const shows = { timeoutMs: 20_000, detail: () => `the terminal shows:\n${stripAnsi(pty.output()).slice(-3000)}` }
      pty.child.stdin?.write('\t\t\t')
      await waitFor('the schedules tab', () => /▸ Schedules/.test(lastFrameOf(pty.output(), 'aizk status')), shows)
      // A tab (wrapping to jobs) and a right arrow in one write: held.
      pty.child.stdin?.write('\t\u001b[C')
      await waitFor('the held tab', () => /▸ Held \(2\)/.test(lastFrameOf(pty.output(), 'aizk status')), shows)
      // A second refresh shows rows that arrived after the first frame.
      await insertQueued(db.pool, 'cli_noop', 100)
      await waitFor('the terminal', () => /queued 113 ·/.test(lastFrameOf(pty.output(), 'aizk status')), {
        timeoutMs: 20_000,
        detail: () => `the terminal shows:\n${stripAnsi(pty.output()).slice(-3000)}`,
      })
      pty.child.stdin?.write('q')
      assert.equal(await pty.exited, 0)
    } finally {
      pty.child.kill()
    }
  })
})
