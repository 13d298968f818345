import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createProgress, renderBar } from '../../src/cli/progress.js'
import { UsageError } from '../../src/errors.js'
import { suggest } from '../../src/operator/did-you-mean.js'
import { parseDuration, parseWhen } from '../../src/operator/duration.js'
import { formatAge, sparkline } from '../../src/operator/format.js'
import { jobId } from '../../src/operator/numbers.js'

describe('cli helpers', () => {
  it('durations and timestamps', () => {
    assert.equal(parseDuration('30s'), 30_000)
    assert.equal(parseDuration('1h30m'), 5_400_000)
    assert.equal(parseDuration('250ms'), 250)
    assert.equal(parseDuration('soon'), null)
    const now = new Date('2026-01-01T00:00:00Z')
    assert.equal(parseWhen('2d', '--x', now).toISOString(), '2026-01-03T00:00:00.000Z')
    assert.equal(parseWhen('2026-02-01T10:00:00+01:00', '--x').toISOString(), '2026-02-01T09:00:00.000Z')
    assert.throws(() => parseWhen('next tuesday', '--execute-after'), UsageError)
  })

  it('suggests near names only', () => {
    const names = ['aizk_usage_event', 'aizk_convert_artifact', 'aizk_reindex_artifact', 'aizk_task_cleanup']
    assert.deepEqual(suggest('aizk_usage_evnt', names), ['aizk_usage_event'])
    assert.deepEqual(suggest('cleanup', names), ['aizk_task_cleanup'])
    assert.deepEqual(suggest('zzzzzz', names), [])
  })

  it('job ids, ages, sparklines, progress', () => {
    assert.equal(jobId(' 42 '), '42')
    assert.throws(() => jobId('9223372036854775808'), UsageError)
    assert.throws(() => jobId('-1'), UsageError)
    assert.equal(formatAge(3725), '1h02m')
    assert.equal(sparkline([0, 1, 8]), ' ▁█')
    assert.equal(renderBar(5, 10, 10), '[#####-----]  50%')
    const lines: string[] = []
    const p = createProgress('prune', { tty: false, intervalMs: 0, write: (s) => lines.push(s) })
    p.update(1, 4)
    p.update(4, 4)
    p.done('done')
    assert.equal(lines.length, 3)
    assert.match(lines[1], /^prune \[#{30}\] 100% 4\/4 \(/)
    assert.equal(lines[2], 'done\n')
  })
})
