import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { fromPgqueuerExpression, nextFireAfter, nextFires, toPgqueuerExpression, validateCron } from '../../src/cron.js'

describe('cron', () => {
  it('stores five fields as they are and six fields with the seconds last (croniter order)', () => {
    assert.equal(toPgqueuerExpression('*/15 * * * *'), '*/15 * * * *')
    assert.equal(toPgqueuerExpression('*/10 0 4 * * 0'), '0 4 * * 0 */10')
    assert.equal(toPgqueuerExpression('0 30 3 * * *'), '30 3 * * *')
    assert.equal(toPgqueuerExpression('@daily'), '0 0 * * *')
    assert.equal(toPgqueuerExpression('@secondly'), '* * * * * *')
    assert.equal(fromPgqueuerExpression('0 4 * * 0 */10'), '*/10 0 4 * * 0')
    assert.equal(fromPgqueuerExpression('0 4 * * 0'), '0 4 * * 0')
  })

  it('a stored expression read back fires at the same times', () => {
    const from = new Date('2024-03-01T12:00:00Z')
    const expr = '15 */5 * * * *'
    assert.deepEqual(nextFires(fromPgqueuerExpression(toPgqueuerExpression(expr)), from, 3), nextFires(expr, from, 3))
  })

  it('next fire is strictly after from, in UTC unless a timezone is given', () => {
    assert.equal(nextFireAfter('* * * * * *', new Date('2024-01-01T00:00:01.000Z')).toISOString(), '2024-01-01T00:00:02.000Z')
    assert.equal(nextFireAfter('0 4 * * *', new Date('2024-01-01T00:00:00Z')).toISOString(), '2024-01-01T04:00:00.000Z')
    assert.equal(nextFireAfter('0 4 * * *', new Date('2024-01-01T00:00:00Z'), { timezone: 'America/New_York' }).toISOString(), '2024-01-01T09:00:00.000Z')
  })

  it('rejects what is not a cron expression', () => {
    assert.throws(() => validateCron('61 * * * *'))
    assert.throws(() => validateCron('* * *'))
    assert.throws(() => validateCron('@fortnightly'))
  })
})
