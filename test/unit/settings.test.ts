import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { z } from 'zod'
import { ConfigError } from '../../src/errors.js'
import { envName, parseSettings, registerSettings } from '../../src/settings.js'

describe('settings', () => {
  it('has the spec defaults', () => {
    const { settings } = parseSettings({})
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
    assert.equal(parseSettings({ AIZK_QUEUE_BATCH_SIZE: '10' }).settings.queueConcurrentTasks, 40)
    assert.equal(parseSettings({ AIZK_QUEUE_BATCH_SIZE: '10', AIZK_QUEUE_CONCURRENT_TASKS: '7' }).settings.queueConcurrentTasks, 7)
  })

  it('coerces booleans explicitly: "false" is false', () => {
    assert.equal(parseSettings({ AIZK_WORKER_NO_SCHEDULER: 'false' }).settings.workerNoScheduler, false)
    assert.equal(parseSettings({ AIZK_WORKER_NO_SCHEDULER: 'TRUE' }).settings.workerNoScheduler, true)
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

  it('lists unknown AIZK_ variables but allows the ones oclif reserves', () => {
    const { unknown } = parseSettings({ AIZK_QUEUE_BATCHSIZE: '1', AIZK_DEBUG: '1' })
    assert.deepEqual(unknown, ['AIZK_QUEUE_BATCHSIZE'])
  })

  it('takes settings registered by job modules, validated with the rest', () => {
    registerSettings({ unitTestProbeCron: z.string().default('* * * * *') })
    assert.equal(parseSettings({}).settings.unitTestProbeCron, '* * * * *')
    assert.equal(envName('unitTestProbeCron'), 'AIZK_UNIT_TEST_PROBE_CRON')
    assert.throws(() => registerSettings({ unitTestProbeCron: z.string() }), /registered twice/)
  })
})

describe('settings documentation', () => {
  it('describes every setting, including each scheduled job pair', async () => {
    const { loadJobModules } = await import('../../src/jobs/load.js')
    const { describeSettings } = await import('../../src/settings.js')
    await loadJobModules()
    const missing = describeSettings(parseSettings({}).settings).filter((r) => !r.description && !r.key.startsWith('unitTest'))
    assert.deepEqual(missing.map((r) => r.key), [])
  })
})

describe('README', () => {
  it('documents every setting in README.md and every command in docs/commands.md', async () => {
    const { readFileSync } = await import('node:fs')
    const { loadJobModules } = await import('../../src/jobs/load.js')
    const { describeSettings } = await import('../../src/settings.js')
    await loadJobModules()
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    const undocumented = describeSettings(parseSettings({}).settings)
      .map((r) => r.variable)
      .filter((v) => !v.startsWith('AIZK_UNIT_TEST') && !readme.includes(`\`${v}\``))
    assert.deepEqual(undocumented, [])
    const commands = readFileSync(new URL('../../docs/commands.md', import.meta.url), 'utf8')
    const manifest = JSON.parse(readFileSync(new URL('../../oclif.manifest.json', import.meta.url), 'utf8'))
    const missing = Object.keys(manifest.commands).filter((id) => !commands.includes(`## \`aizk ${id.replaceAll(':', ' ')}`))
    assert.deepEqual(missing, [])
  })
})
