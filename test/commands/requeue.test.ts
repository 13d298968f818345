import assert from 'node:assert/strict'
import { before, beforeEach, describe, it } from 'node:test'
import { binPath, cleanEnv, runCli } from '../support/cli.js'
import { cliEnv } from '../support/commands/env.js'
import { insertHeld } from '../support/commands/queue-rows.js'
import { fileDatabase } from '../support/db.js'
import { runInPty, stripAnsi } from '../support/pty.js'
import { waitFor } from '../support/wait-for.js'

const db = await fileDatabase()
let env: Record<string, string>

before(async () => {
  env = cliEnv(db.url, { AIZK_REQUEUE_DEFAULT_LIMIT: '5' })
})
beforeEach(async () => {
  await db.pool.query('TRUNCATE pgqueuer')
})

async function statuses(): Promise<Record<string, number>> {
  const { rows } = await db.pool.query(`SELECT status::text, count(*)::int AS n FROM pgqueuer GROUP BY 1`)
  return Object.fromEntries(rows.map((r) => [r.status, r.n]))
}

describe('aizk requeue', () => {
  it('--dry-run lists the window and changes nothing', async () => {
    const ids = await insertHeld(db.pool, 'cli_noop', 3)
    const res = await runCli(['requeue', '--dry-run', '--json'], { env })
    assert.equal(res.code, 0, res.stderr)
    const doc = JSON.parse(res.stdout)
    assert.deepEqual(doc, {
      dryRun: true,
      matching: 3,
      count: 3,
      remaining: 3,
      requeued: ids.map((id) => ({ id, entrypoint: 'cli_noop', cycles: 1 })),
      note: null,
    })
    assert.deepEqual(await statuses(), { failed: 3 })
    const text = await runCli(['requeue', '--dry-run'], { env })
    assert.match(text.stdout, /would requeue 3 job\(s\): cli_noop 3/)
    assert.match(text.stdout, new RegExp(`\\s${ids[0]}\\s+cli_noop\\s+1`))
  })

  it('filters by entrypoint and limit, oldest first', async () => {
    const a = await insertHeld(db.pool, 'cli_noop', 4)
    await insertHeld(db.pool, 'cli_strict', 2)
    const res = await runCli(['requeue', '--entrypoint', 'cli_noop', '--limit', '2', '--json'], { env })
    assert.equal(res.code, 0, res.stderr)
    const doc = JSON.parse(res.stdout)
    assert.deepEqual(
      doc.requeued.map((r: { id: string }) => r.id),
      a.slice(0, 2),
    )
    assert.deepEqual([doc.matching, doc.count, doc.remaining], [4, 2, 2])
    assert.deepEqual(await statuses(), { failed: 4, queued: 2 })
    const both = await runCli(['requeue', '-e', 'cli_noop', '-e', 'cli_strict'], { env })
    assert.equal(both.code, 0, both.stderr)
    assert.match(both.stdout, /requeued 4 job\(s\): cli_noop 2, cli_strict 2/)
  })

  it('without --limit and no terminal, moves only the default window unless --yes', async () => {
    await insertHeld(db.pool, 'cli_noop', 8)
    const res = await runCli(['requeue'], { env })
    assert.equal(res.code, 0, res.stderr)
    assert.match(res.stdout, /requeued 5 job\(s\)/)
    assert.match(res.stderr, /8 held jobs match; requeued the oldest 5 \(the default window\)\. Pass --yes/)
    assert.deepEqual(await statuses(), { failed: 3, queued: 5 })
    await db.pool.query(`UPDATE pgqueuer SET status = 'failed'`)
    const yes = await runCli(['requeue', '--yes', '--json'], { env })
    assert.equal(yes.code, 0, yes.stderr)
    assert.equal(JSON.parse(yes.stdout).count, 8)
    assert.deepEqual(await statuses(), { queued: 8 })
  })

  it('--max-cycles leaves rows that burned their cycles alone', async () => {
    const [burned] = await insertHeld(db.pool, 'cli_noop', 1, { cycles: 3 })
    const [young] = await insertHeld(db.pool, 'cli_noop', 1, { cycles: 1 })
    const res = await runCli(['requeue', '--max-cycles', '3', '--json'], { env })
    assert.equal(res.code, 0, res.stderr)
    assert.deepEqual(JSON.parse(res.stdout).requeued, [{ id: young, entrypoint: 'cli_noop', cycles: 2 }])
    const { rows } = await db.pool.query('SELECT status::text FROM pgqueuer WHERE id = $1', [burned])
    assert.equal(rows[0].status, 'failed')
  })

  it('--id requeues exactly those; an id that is not held is exit 5 and moves nothing', async () => {
    const ids = await insertHeld(db.pool, 'cli_noop', 3)
    const ok = await runCli(['requeue', '--id', ids[1], '--json'], { env })
    assert.equal(ok.code, 0, ok.stderr)
    assert.deepEqual(
      JSON.parse(ok.stdout).requeued.map((r: { id: string }) => r.id),
      [ids[1]],
    )
    const bad = await runCli(['requeue', '--id', ids[0], '--id', ids[1], '--id', '987654'], { env })
    assert.equal(bad.code, 5, bad.stderr + bad.stdout)
    assert.match(bad.stderr, new RegExp(`not held: job ${ids[1]} \\(queued\\), job 987654 \\(no such job\\)`))
    assert.deepEqual(await statuses(), { failed: 2, queued: 1 })
    const json = await runCli(['requeue', '--id', '987654', '--json'], { env })
    assert.equal(json.code, 5)
    assert.equal(JSON.parse(json.stdout).error.code, 'not_found')
  })

  it('--older-than takes only jobs held for at least that long', async () => {
    const old = await insertHeld(db.pool, 'cli_noop', 2)
    await insertHeld(db.pool, 'cli_noop', 2)
    await db.pool.query(`UPDATE pgqueuer SET updated = now() - interval '90 minutes' WHERE id = ANY($1::bigint[])`, [old])
    const res = await runCli(['requeue', '--older-than', '1h', '--json'], { env })
    assert.equal(res.code, 0, res.stderr)
    assert.deepEqual(
      JSON.parse(res.stdout).requeued.map((r: { id: string }) => r.id),
      old,
    )
    assert.deepEqual(await statuses(), { failed: 2, queued: 2 })
  })

  it('shows progress for a big batch', async () => {
    await insertHeld(db.pool, 'cli_noop', 2500)
    const res = await runCli(['requeue', '--yes'], { env })
    assert.equal(res.code, 0, res.stderr)
    assert.match(res.stderr, /requeue \[#+\] 100% 2,500\/2,500/)
    assert.ok(!res.stderr.includes('\u001b['), 'no escape codes without a terminal')
    assert.deepEqual(await statuses(), { queued: 2500 })
  })

  describe('bad input: exit 2, nothing moved', () => {
    const cases: [string, string[], RegExp][] = [
      ['zero limit', ['requeue', '--limit', '0'], /--limit must be a whole number of at least 1, got 0/],
      ['negative limit', ['requeue', '--limit=-3'], /--limit must be a whole number of at least 1, got -3/],
      ['zero max cycles', ['requeue', '--max-cycles', '0'], /--max-cycles/],
      ['malformed id', ['requeue', '--id', '12x'], /--id "12x" is not a job id/],
      ['malformed age', ['requeue', '--older-than', '3 days'], /--older-than "3 days" is not a duration/],
      ['bad entrypoint name', ['requeue', '--entrypoint', 'No Such'], /not an entrypoint name/],
      ['unknown flag', ['requeue', '--all'], /all/],
    ]
    for (const [name, args, re] of cases) {
      it(name, async () => {
        await insertHeld(db.pool, 'cli_noop', 2)
        const res = await runCli(args, { env })
        assert.equal(res.code, 2, res.stderr)
        assert.match(res.stderr, re)
        assert.deepEqual(await statuses(), { failed: 2 })
      })
    }
  })

  it('on a terminal, asks before moving more than the default window', async () => {
    await insertHeld(db.pool, 'cli_noop', 8)
    const pty = runInPty([process.execPath, binPath, 'requeue'], { env: cleanEnv(env) })
    try {
      await waitFor('the prompt', () => /Requeue all 8 \(a\), the oldest 5 \(w\), or none \(N\)\?/.test(stripAnsi(pty.output())))
      pty.child.stdin?.write('a\r')
      assert.equal(await pty.exited, 0, pty.output())
      assert.match(stripAnsi(pty.output()), /requeued 8 job\(s\)/)
      assert.deepEqual(await statuses(), { queued: 8 })
    } finally {
      pty.child.kill()
    }
  })
})
