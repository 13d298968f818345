import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { before, beforeEach, describe, it } from 'node:test'
import { binPath, cleanEnv, runCli } from '../support/cli.js'
import { cliEnv } from '../support/commands/env.js'
import { insertLog } from '../support/commands/queue-rows.js'
import { fileDatabase } from '../support/db.js'
import { waitFor } from '../support/wait-for.js'

const db = await fileDatabase()
let env: Record<string, string>

before(async () => {
  env = cliEnv(db.url)
})
beforeEach(async () => {
  await db.pool.query('TRUNCATE pgqueuer, pgqueuer_log')
})

async function logRows(): Promise<number> {
  const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM pgqueuer_log')
  return rows[0].n
}

describe('aizk prune', () => {
  it('--dry-run counts and deletes nothing', async () => {
    await insertLog(db.pool, 1200, 10)
    await insertLog(db.pool, 30, 2)
    const res = await runCli(['prune', '--dry-run', '--json'], { env })
    assert.equal(res.code, 0, res.stderr)
    const doc = JSON.parse(res.stdout)
    assert.deepEqual([doc.dryRun, doc.retentionDays, doc.wouldDelete], [true, 7, 1200])
    assert.equal(typeof doc.log.bytes, 'number')
    const text = await runCli(['prune', '--dry-run', '--retention-days', '1'], { env })
    assert.match(text.stdout, /would delete 1,230 log row\(s\) older than .* \(retention 1 days\)/)
    assert.equal(await logRows(), 1230)
  })

  it('deletes in batches with progress lines, --no-vacuum, --json', async () => {
    await insertLog(db.pool, 2500, 10)
    await insertLog(db.pool, 10, 1)
    const res = await runCli(['prune', '--batch', '1000', '--no-vacuum'], { env })
    assert.equal(res.code, 0, res.stderr)
    assert.match(res.stdout, /deleted 2,500 log row\(s\) older than \S+ in 3 batch\(es\), [\d.]+s$/m)
    assert.doesNotMatch(res.stdout, /vacuumed/)
    assert.match(res.stderr, /prune \[#+-*\]\s+\d+% [\d,]+\/2,500/)
    assert.equal(await logRows(), 10)
    await insertLog(db.pool, 5, 30)
    const json = await runCli(['prune', '--json'], { env })
    assert.equal(json.code, 0, json.stderr)
    const doc = JSON.parse(json.stdout)
    assert.deepEqual([doc.deleted, doc.batches, doc.vacuumed, doc.batch, doc.reclaim], [5, 1, true, 10000, null])
    assert.equal(json.stderr, '', 'no progress in --json mode')
  })

  it('--reclaim needs --yes without a terminal, and with it rewrites the table', async () => {
    await insertLog(db.pool, 20000, 10)
    const refused = await runCli(['prune', '--reclaim'], { env })
    assert.equal(refused.code, 2)
    assert.match(refused.stderr, /--reclaim needs --yes without a terminal: the rewrite \(VACUUM FULL\) takes an ACCESS EXCLUSIVE lock/)
    assert.equal(await logRows(), 20000, 'nothing deleted before the question')
    const res = await runCli(['prune', '--reclaim', '--yes', '--json'], { env })
    assert.equal(res.code, 0, res.stderr)
    const doc = JSON.parse(res.stdout)
    assert.equal(doc.deleted, 20000)
    assert.ok(doc.reclaim.bytesAfter < doc.reclaim.bytesBefore, JSON.stringify(doc.reclaim))
  })

  describe('bad input: exit 2, nothing deleted', () => {
    const cases: [string, string[], RegExp][] = [
      ['zero batch', ['prune', '--batch', '0'], /--batch must be a whole number of at least 1, got 0/],
      ['negative batch', ['prune', '--batch=-5'], /--batch must be/],
      ['bad retention', ['prune', '--retention-days', 'week'], /--retention-days must be a number of days from 0 to 36500, got "week"/],
      ['negative retention', ['prune', '--retention-days=-1'], /--retention-days/],
      ['unknown flag', ['prune', '--force'], /force/],
    ]
    for (const [name, args, re] of cases) {
      it(name, async () => {
        await insertLog(db.pool, 10, 10)
        const res = await runCli(args, { env })
        assert.equal(res.code, 2, res.stderr)
        assert.match(res.stderr, re)
        assert.equal(await logRows(), 10)
      })
    }
  })

  it('prunes 1,000,000 rows in batches with visible progress while a worker completes jobs', async () => {
    await insertLog(db.pool, 1_000_000, 10, 'old_history')
    const worker = spawn(process.execPath, [binPath, 'worker', '--entrypoint', 'cli_noop', '--no-scheduler'], {
      env: cleanEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let workerOut = ''
    worker.stdout.on('data', (d) => {
      workerOut += d
    })
    worker.stderr.on('data', (d) => {
      workerOut += d
    })
    const workerExit = new Promise<number | null>((resolve) => worker.on('close', (code) => resolve(code)))
    let feeding = true
    const feed = (async () => {
      while (feeding) {
        await db.pool.query(`INSERT INTO pgqueuer (priority, entrypoint, status) SELECT 0, 'cli_noop', 'queued' FROM generate_series(1, 100)`)
        await new Promise((r) => setTimeout(r, 20))
      }
    })()
    try {
      const completed = async () => {
        const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM pgqueuer_log WHERE entrypoint = 'cli_noop'`)
        return rows[0].n
      }
      await waitFor(`the worker to complete a job\n${workerOut}`, async () => (await completed()) > 0)
      const beforePrune = await completed()
      const res = await runCli(['prune', '--batch', '10000'], { env, timeoutMs: 240_000 })
      const duringPrune = (await completed()) - beforePrune
      assert.equal(res.code, 0, res.stderr)
      assert.match(res.stdout, /deleted 1,000,000 log row\(s\) older than \S+ in 101 batch\(es\)/)
      const progress = res.stderr.split('\n').filter((l) => /^prune \[/.test(l))
      assert.ok(progress.length >= 2, `progress lines:\n${res.stderr}`)
      const counts = progress.map((l) => Number(l.match(/ ([\d,]+)\/1,000,000/)![1].replaceAll(',', '')))
      assert.deepEqual(
        counts,
        [...counts].sort((a, b) => a - b),
        'progress only goes forward',
      )
      assert.equal(counts.at(-1), 1_000_000)
      assert.ok(duringPrune > 0, 'the worker kept completing jobs during the prune')
      const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM pgqueuer_log WHERE entrypoint = 'old_history'`)
      assert.equal(rows[0].n, 0)
      console.log(`prune of 1,000,000 rows: ${progress.length} progress lines; the worker completed ${duringPrune} jobs meanwhile`)
    } finally {
      feeding = false
      await feed
      worker.kill('SIGTERM')
      await workerExit
    }
  })
})
