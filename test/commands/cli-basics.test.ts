import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { repoRoot, runCli } from '../support/cli.js'

describe('aizk CLI basics', () => {
  it('--help lists every command with a summary', async () => {
    const res = await runCli(['--help'])
    assert.equal(res.code, 0)
    for (const cmd of ['install', 'settings', 'server']) assert.match(res.stdout, new RegExp(`\\n\\s+${cmd}\\s+\\S`))
  })

  it('--version prints the version', async () => {
    const res = await runCli(['--version'])
    assert.equal(res.code, 0)
    assert.match(res.stdout, /^aizk\/\d+\.\d+\.\d+/)
  })

  it('--version --json prints one JSON document, in either order of the flags', async () => {
    const { version } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'))
    for (const args of [
      ['--version', '--json'],
      ['--json', '--version'],
    ]) {
      const res = await runCli(args)
      assert.equal(res.code, 0, res.stderr)
      const doc = JSON.parse(res.stdout)
      assert.deepEqual(doc, {
        name: 'aizk',
        version,
        cliVersion: `aizk/${version}`,
        architecture: `${process.platform}-${process.arch}`,
        nodeVersion: `node-${process.version}`,
      })
    }
  })

  it('bad settings: exit 3 with one line per problem', async () => {
    const res = await runCli(['settings'], {
      env: { AIZK_QUEUE_BATCH_SIZE: 'abc', AIZK_DATABASE_URL: 'nope', AIZK_WORKER_NO_SCHEDULER: 'perhaps' },
    })
    assert.equal(res.code, 3)
    const lines = res.stderr.split('\n').filter((l) => /^\s+AIZK_/.test(l))
    assert.equal(lines.length, 3)
    assert.match(res.stderr, /AIZK_QUEUE_BATCH_SIZE: expected a whole number/)
    assert.match(res.stderr, /AIZK_DATABASE_URL: expected a URL/)
    assert.match(res.stderr, /AIZK_WORKER_NO_SCHEDULER: expected true or false/)
    assert.doesNotMatch(res.stderr, /\s+at\s+\S+\.js:\d+/, 'no stack trace')
  })

  it('bad settings with --json: one error document, exit 3', async () => {
    const res = await runCli(['settings', '--json'], { env: { AIZK_QUEUE_BATCH_SIZE: '0' } })
    assert.equal(res.code, 3)
    const doc = JSON.parse(res.stdout)
    assert.equal(doc.error.code, 'config')
    assert.deepEqual(doc.error.details, ['AIZK_QUEUE_BATCH_SIZE: expected a whole number between 1 and 10000, got 0'])
  })

  it('an unreachable server: exit 4 naming the address, no stack trace', async () => {
    const res = await runCli(['install'], { env: { AIZK_DATABASE_URL: 'postgres://aizk@127.0.0.1:1/nowhere' } })
    assert.equal(res.code, 4)
    assert.match(res.stderr, /cannot reach PostgreSQL at 127\.0\.0\.1:1\/nowhere/)
    assert.match(res.stderr, /hint:/)
    assert.doesNotMatch(res.stderr, /\s+at\s+\S+\.js:\d+/)
  })

  it('an unknown flag: exit 2', async () => {
    const res = await runCli(['install', '--frobnicate'])
    assert.equal(res.code, 2)
    assert.match(res.stderr, /frobnicate/)
  })

  it('settings masks the password of the database URL', async () => {
    const res = await runCli(['settings', '--json'], { env: { AIZK_DATABASE_URL: 'postgres://u:hunter2@db:5432/x' } })
    assert.equal(res.code, 0, res.stderr)
    const doc = JSON.parse(res.stdout)
    assert.equal(doc.settings.databaseUrl.value, 'postgres://u:****@db:5432/x')
    assert.doesNotMatch(res.stdout, /hunter2/)
  })
})

describe('a configured server without the schema', () => {
  it('every command that needs the schema exits 4 with "run `aizk install`", and writes nothing', async () => {
    const { createEmptyDatabase } = await import('../support/db.js')
    const db = await createEmptyDatabase()
    try {
      for (const args of [['status', '--once'], ['requeue', '--dry-run'], ['enqueue', 'py_job', '--force', '--payload', '{}'], ['worker']]) {
        const res = await runCli(args, { env: { AIZK_DATABASE_URL: db.url } })
        assert.equal(res.code, 4, `${args.join(' ')}: ${res.stderr}`)
        assert.match(res.stderr, /run `aizk install`/, args.join(' '))
      }
      const { rows } = await db.pool.query("select count(*)::int as n from pg_tables where schemaname = 'public'")
      assert.equal(rows[0].n, 0)
    } finally {
      await db.drop()
    }
  })
})

describe("an application's job module", () => {
  const modules = { AIZK_WORKER_JOB_MODULES: 'test/fixtures/app-jobs.mjs' }

  it('binds its scheduled pass with derived names and its two settings, nothing registered by hand', async () => {
    const res = await runCli(['jobs', 'types', '--json'], { env: { ...modules, AIZK_NIGHTLY_REPORT_CRON: '45 3 * * *' } })
    assert.equal(res.code, 0, res.stderr)
    const job = JSON.parse(res.stdout).jobs.find((j: { entrypoint: string }) => j.entrypoint === 'aizk_task_nightly_report')
    assert.ok(job, 'the pass is listed')
    assert.equal(job.cronEntrypoint, 'aizk_cron_nightly_report')
    assert.equal(job.cron, '45 3 * * *')
    assert.equal(job.kind, 'system')
  })

  it("validates the module's settings with the rest: a bad cron is exit 3 naming it", async () => {
    const res = await runCli(['settings'], { env: { ...modules, AIZK_NIGHTLY_REPORT_CRON: 'at midnight', AIZK_QUEUE_BATCH_SIZE: 'x' } })
    assert.equal(res.code, 3)
    assert.match(res.stderr, /AIZK_NIGHTLY_REPORT_CRON: expected a cron expression/)
    assert.match(res.stderr, /AIZK_QUEUE_BATCH_SIZE/)
  })

  it('a module that cannot be loaded is exit 3 naming the setting', async () => {
    const res = await runCli(['jobs'], { env: { AIZK_WORKER_JOB_MODULES: './no/such/module.js' } })
    assert.equal(res.code, 3)
    assert.match(res.stderr, /AIZK_WORKER_JOB_MODULES: cannot load "\.\/no\/such\/module\.js"/)
  })
})
