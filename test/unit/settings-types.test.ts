// The settings object is typed end to end: these lines are checked by `npm run typecheck` (the
// test itself only runs them). A misspelt key, a wrong value type or a concurrency setting that
// names no whole-number setting fails to compile.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { NumberSettingKey, Settings } from '../../src/settings.js'
import { parseSettings } from '../../src/settings.js'

describe('the Settings type', () => {
  it('knows every key and its type', () => {
    const settings: Settings = parseSettings({})
    const batch: number = settings.queueBatchSize
    const output: 'auto' | 'view' | 'json' = settings.workerOutput
    // @ts-expect-error a misspelt key does not compile
    const misspelt = settings.queueBatchSzie
    // @ts-expect-error a setting's value has its type: the batch size is no string
    const wrong: string = settings.queueBatchSize
    // A scheduled job's pair is typed by its name's ending.
    const cron: string | undefined = settings.backupCron
    const enabled: boolean | undefined = settings.backupEnabled
    assert.deepEqual([batch, output, misspelt, wrong, cron, enabled], [64, 'auto', undefined, 64, undefined, undefined])
  })

  it('lets a job name only a whole-number setting as its concurrency setting', () => {
    const ok: NumberSettingKey = 'doclingConcurrency'
    // @ts-expect-error the LLM model is no number
    const notANumber: NumberSettingKey = 'llmModel'
    // @ts-expect-error no such setting
    const unknown: NumberSettingKey = 'doclingConcurency'
    assert.deepEqual([ok, notANumber, unknown], ['doclingConcurrency', 'llmModel', 'doclingConcurency'])
  })
})
