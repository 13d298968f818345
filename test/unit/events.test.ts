import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { WorkerEvents } from '../../src/events.js'

describe('worker events', () => {
  it("contains a listener's error: the other listeners still hear the event, and it is reported once as worker:error", () => {
    const events = new WorkerEvents()
    const heard: string[] = []
    const errors: { where: string; error: string }[] = []
    events.on('worker:error', (e) => errors.push(e))
    events.onAny((name) => {
      if (name === 'job:released') throw new Error('any-listener bug')
    })
    events.on('job:released', () => {
      throw new Error('listener bug')
    })
    events.on('job:released', (e) => heard.push(e.jobId))
    assert.doesNotThrow(() => events.emit('job:released', { jobId: '7', entrypoint: 'e' }))
    assert.deepEqual(heard, ['7'])
    assert.deepEqual(errors, [
      { where: 'listener:job:released', error: 'any-listener bug' },
      { where: 'listener:job:released', error: 'listener bug' },
    ])
  })

  it('a worker:error listener that throws is contained without reporting itself again', () => {
    const events = new WorkerEvents()
    let calls = 0
    events.on('worker:error', () => {
      calls++
      throw new Error('broken logger')
    })
    assert.doesNotThrow(() => events.emit('worker:error', { where: 'pick', error: 'x' }))
    assert.equal(calls, 1)
  })

  it('unsubscribing removes the guarded listener', () => {
    const events = new WorkerEvents()
    const off = events.on('job:released', () => {})
    assert.equal(events.wants('job:released'), true)
    off()
    assert.equal(events.wants('job:released'), false)
  })
})
