/**
 * Every example of `aizk enqueue --help` runs as written: each is taken from the command's
 * `examples` (the oclif manifest, what --help prints), run by a shell in a scratch folder holding
 * the usage.json its description shows, against a database of this file's own with a real worker
 * of aizk's own jobs, so the --wait example sees its job succeed.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { before, describe, it } from 'node:test'
import { binPath, cleanEnv, repoRoot } from '../support/cli.js'
import { fileDatabase } from '../support/db.js'
import { spawnWorker, type WorkerProcess, workerEnv } from '../support/worker-process.js'

const db = await fileDatabase()
let tmp: string
let worker: WorkerProcess

before(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'aizk-enqueue-examples-'))
  worker = spawnWorker(workerEnv(db.url, { AIZK_WORKER_JOB_MODULES: '' }))
  await worker.waitFor((e) => e.event === 'worker:started', 'the worker to start')
})
db.beforeDrop(async () => {
  await worker.kill()
  await rm(tmp, { recursive: true, force: true })
})

function sh(command: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('sh', ['-c', command], { cwd: tmp, env: cleanEnv({ AIZK_DATABASE_URL: db.url }), timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr })
    })
    // As a terminal would: nothing to read on stdin (a payload-less enqueue reads a piped stdin).
    child.stdin?.end()
  })
}

describe('aizk enqueue --help examples', () => {
  it('each example exits 0 and does what its description says', async () => {
    const manifest = JSON.parse(await readFile(path.join(repoRoot, 'oclif.manifest.json'), 'utf8'))
    const examples: { command: string; description: string }[] = manifest.commands.enqueue.examples
    assert.ok(examples.length >= 8, 'the examples were found')
    const usage = examples.map((e) => /usage\.json: (\{.*\})\.$/.exec(e.description)?.[1]).find(Boolean)
    assert.ok(usage, 'an example shows what usage.json holds')
    await writeFile(path.join(tmp, 'usage.json'), usage)
    const aizk = `"${process.execPath}" "${binPath}"`
    for (const example of examples) {
      const command = example.command.replaceAll('<%= config.bin %>', aizk)
      const res = await sh(command)
      assert.equal(res.code, 0, `${example.command}\n${res.stdout}${res.stderr}`)
      if (command.includes('--json')) assert.equal(JSON.parse(res.stdout).enqueued, true)
      else assert.match(res.stdout, /^enqueued job \d+ /, example.command)
      if (command.includes('--wait')) assert.match(res.stdout, /^job \d+ succeeded$/m)
    }
    const { rows } = await db.pool.query(
      `SELECT entrypoint FROM pgqueuer UNION ALL SELECT entrypoint FROM pgqueuer_log WHERE status IN ('successful', 'failed') ORDER BY 1`,
    )
    const seen = new Set(rows.map((r) => r.entrypoint))
    for (const ep of ['aizk_task_decay', 'aizk_usage_event', 'aizk_task_dedup', 'aizk_task_cleanup', 'py_send_mail'])
      assert.ok(seen.has(ep), `${ep} was enqueued`)
    const usageRows = await db.pool.query('SELECT count(*)::int AS n FROM pgqueuer_log WHERE entrypoint = $1 AND status = $2', [
      'aizk_usage_event',
      'successful',
    ])
    assert.ok(usageRows.rows[0].n >= 1, 'the waited usage event succeeded')
  })
})
