import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { z } from 'zod'
import { ConfigError } from '../../src/errors.js'
import { type JobClass, QueueJob } from '../../src/jobs/queue-job.js'
import { JobRegistry, jobRegistry } from '../../src/jobs/registry.js'
import { envName, parseSettings, unknownSettingVariables } from '../../src/settings.js'

describe('settings', () => {
  it('has the spec defaults', () => {
    const settings = parseSettings({})
    assert.equal(settings.queueBatchSize, 64)
    assert.equal(settings.queueConcurrentTasks, 256)
    assert.equal(settings.doclingConcurrency, 4)
    assert.equal(settings.graphBuildConcurrency, 4)
    assert.equal(settings.chunkRecoveryMaxCycles, 3)
    assert.equal(settings.chunkRecoveryBatch, 512)
    assert.equal(settings.cleanupLogRetentionDays, 7)
    assert.equal(settings.cleanupLogDeleteBatch, 10000)
    assert.equal(settings.decayHalfLifeDays, 90)
    assert.equal(settings.integrityBatch, 100)
    assert.equal(settings.integrityMinAgeDays, 30)
    assert.equal(settings.heartbeatTimeoutSeconds, 30)
    assert.equal(settings.shutdownTimeoutSeconds, 25)
    assert.equal(settings.appRole, 'aizk_app')
    assert.equal(settings.timezone, 'UTC')
  })

  it('derives concurrent tasks from the batch size unless set', () => {
    assert.equal(parseSettings({ AIZK_QUEUE_BATCH_SIZE: '10' }).queueConcurrentTasks, 40)
    assert.equal(parseSettings({ AIZK_QUEUE_BATCH_SIZE: '10', AIZK_QUEUE_CONCURRENT_TASKS: '7' }).queueConcurrentTasks, 7)
  })

  it('derives the local queue from the batch size unless set; 0 is allowed, a negative size is not', () => {
    // Twice the largest pick (8 batches, at most 512), at least 4 batches.
    assert.equal(parseSettings({}).queueLocalSize, 1024)
    assert.equal(parseSettings({ AIZK_QUEUE_BATCH_SIZE: '10' }).queueLocalSize, 160)
    assert.equal(parseSettings({}, { overrides: { queueBatchSize: 100 } }).queueLocalSize, 1024, 'derived after the --batch-size override')
    assert.equal(parseSettings({ AIZK_QUEUE_BATCH_SIZE: '2000' }).queueLocalSize, 8000, 'a batch above the cap: 4 batches')
    assert.equal(parseSettings({ AIZK_QUEUE_LOCAL_SIZE: '0' }).queueLocalSize, 0)
    assert.equal(parseSettings({ AIZK_QUEUE_LOCAL_SIZE: '512' }, { overrides: { queueBatchSize: 10 } }).queueLocalSize, 512)
    assert.throws(() => parseSettings({ AIZK_QUEUE_LOCAL_SIZE: '-1' }), /AIZK_QUEUE_LOCAL_SIZE/)
  })

  it('takes overrides (worker flags) in the same pass: a batch-size override keeps an explicit concurrency', () => {
    assert.equal(parseSettings({}, { overrides: { queueBatchSize: 10 } }).queueConcurrentTasks, 40, 'derived after the override')
    // 256 is also 4 x the default batch size: still an explicit value, kept.
    const explicit = parseSettings({ AIZK_QUEUE_CONCURRENT_TASKS: '256' }, { overrides: { queueBatchSize: 10 } })
    assert.equal(explicit.queueBatchSize, 10)
    assert.equal(explicit.queueConcurrentTasks, 256, 'AIZK_QUEUE_CONCURRENT_TASKS is not overridden by --batch-size')
    assert.equal(parseSettings({ AIZK_QUEUE_CONCURRENT_TASKS: '7' }, { overrides: { queueConcurrentTasks: 3 } }).queueConcurrentTasks, 3)
    assert.throws(
      () => parseSettings({}, { overrides: { heartbeatTimeoutSeconds: 0.2 }, sources: { heartbeatTimeoutSeconds: '--heartbeat-timeout' } }),
      /--heartbeat-timeout \(AIZK_HEARTBEAT_TIMEOUT_SECONDS\) \(0.2\)/,
    )
    assert.ok(Object.isFrozen(explicit), 'the settings object is frozen')
  })

  it('coerces booleans explicitly: "false" is false', () => {
    assert.equal(parseSettings({ AIZK_WORKER_NO_SCHEDULER: 'false' }).workerNoScheduler, false)
    assert.equal(parseSettings({ AIZK_WORKER_NO_SCHEDULER: 'TRUE' }).workerNoScheduler, true)
  })

  it('reports every problem at once, each naming its variable', () => {
    try {
      parseSettings({ AIZK_QUEUE_BATCH_SIZE: 'abc', AIZK_DATABASE_URL: 'not a url', AIZK_WORKER_NO_SCHEDULER: 'maybe', AIZK_TIMEZONE: 'Mars/Base' })
      assert.fail('expected a ConfigError')
    } catch (err) {
      assert.ok(err instanceof ConfigError)
      assert.equal(err.exitCode, 3)
      const vars = err.problems.map((p) => p.split(':')[0]).sort()
      assert.deepEqual(vars, ['AIZK_DATABASE_URL', 'AIZK_QUEUE_BATCH_SIZE', 'AIZK_TIMEZONE', 'AIZK_WORKER_NO_SCHEDULER'])
      assert.match(err.problems.find((p) => p.startsWith('AIZK_QUEUE_BATCH_SIZE'))!, /whole number.*"abc"/)
    }
  })

  it('rejects a URL of the wrong scheme', () => {
    assert.throws(() => parseSettings({ AIZK_DATABASE_URL: 'mysql://x/y' }), /AIZK_DATABASE_URL: expected a postgres or postgresql URL/)
  })

  it('hands the environment it was given down as settings.env, a frozen copy', () => {
    const env: NodeJS.ProcessEnv = { XDG_DATA_HOME: '/srv/data', PATH: '/usr/bin' }
    const settings = parseSettings(env)
    env.XDG_DATA_HOME = '/elsewhere'
    assert.deepEqual(settings.env, { XDG_DATA_HOME: '/srv/data', PATH: '/usr/bin' })
    assert.equal(Object.isFrozen(settings.env), true)
  })

  it('lists unknown AIZK_ variables but allows the ones oclif reserves', () => {
    assert.deepEqual(unknownSettingVariables({ AIZK_QUEUE_BATCHSIZE: '1', AIZK_DEBUG: '1', AIZK_CONTENT_TYPE: 'json' }), ['AIZK_QUEUE_BATCHSIZE'])
  })

  it("takes the settings a registry's jobs declared, validated with the rest", () => {
    const registry = new JobRegistry()
    class UnitTestProbe {
      static entrypoint = 'unit_test_probe'
      static payload = z.any()
      static priority = 0
      static concurrencyLimit = 0
      static maxAttempts = 1
      static payloadFormat = 'json'
      static declareSettings = () => ({ shape: { unitTestProbeCron: z.string().default('* * * * *') } })
      async handle() {}
    }
    Object.setPrototypeOf(UnitTestProbe.prototype, QueueJob.prototype)
    registry.register(UnitTestProbe as unknown as JobClass)
    assert.equal(parseSettings({}, { registry }).unitTestProbeCron, '* * * * *')
    assert.equal('unitTestProbeCron' in parseSettings({}), false, 'no global schema: another parse does not see it')
    assert.equal(envName('unitTestProbeCron'), 'AIZK_UNIT_TEST_PROBE_CRON')
    assert.deepEqual(unknownSettingVariables({ AIZK_UNIT_TEST_PROBE_CRON: 'x' }, registry), [])
  })
})

describe('settings documentation', () => {
  it('describes every setting, including each scheduled job pair', async () => {
    const { loadJobModules } = await import('../../src/app/load-job-modules.js')
    const { describeSettings } = await import('../../src/settings.js')
    await loadJobModules()
    const missing = describeSettings(parseSettings({}, { registry: jobRegistry }), jobRegistry).filter((r) => !r.description && !r.key.startsWith('unitTest'))
    assert.deepEqual(
      missing.map((r) => r.key),
      [],
    )
  })
})

describe('README', () => {
  it('documents every setting in docs/settings.md and every command in docs/commands.md', async () => {
    const { readFileSync } = await import('node:fs')
    const { loadJobModules } = await import('../../src/app/load-job-modules.js')
    const { describeSettings } = await import('../../src/settings.js')
    await loadJobModules()
    const reference = readFileSync(new URL('../../docs/settings.md', import.meta.url), 'utf8')
    const undocumented = describeSettings(parseSettings({}, { registry: jobRegistry }), jobRegistry)
      .map((r) => r.variable)
      .filter((v) => !v.startsWith('AIZK_UNIT_TEST') && !reference.includes(`\`${v}\``))
    assert.deepEqual(undocumented, [])
    const commands = readFileSync(new URL('../../docs/commands.md', import.meta.url), 'utf8')
    const manifest = JSON.parse(readFileSync(new URL('../../oclif.manifest.json', import.meta.url), 'utf8'))
    const missing = Object.keys(manifest.commands).filter((id) => !commands.includes(`## \`aizk ${id.replaceAll(':', ' ')}`))
    assert.deepEqual(missing, [])
  })
})

describe('settings reference', () => {
  it("docs/settings.md and the README's first-run table are what `npm run readme` writes from the declarations", async () => {
    const { readFileSync } = await import('node:fs')
    const { firstRunTable, referenceRows, settingsReference } = await import('../../src/app/settings-reference.js')
    const rows = (await referenceRows()).filter((r) => !r.key.startsWith('unitTest'))
    const reference = readFileSync(new URL('../../docs/settings.md', import.meta.url), 'utf8')
    assert.equal(reference, settingsReference(rows), 'docs/settings.md is stale: run `npm run readme`')
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    assert.ok(readme.includes(`<!-- settings -->\n${firstRunTable(rows)}\n<!-- settingsstop -->`), "the README's settings table is stale: run `npm run readme`")
  })

  it('every setting belongs to a feature group, and a handful is marked for a first run', async () => {
    const { referenceRows, groupedRows } = await import('../../src/app/settings-reference.js')
    const rows = await referenceRows()
    const grouped = groupedRows(rows).flatMap((g) => g.rows.map((r) => r.key))
    assert.deepEqual(grouped.sort(), rows.map((r) => r.key).sort())
    const firstRun = rows.filter((r) => r.firstRun).length
    assert.ok(firstRun > 0 && firstRun <= 12, `${firstRun} first-run settings`)
  })
})
