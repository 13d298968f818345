import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { canDrawLive } from '../../src/cli/terminal.js'

const tty = { isTTY: true } as NodeJS.WriteStream
const pipe = { isTTY: false } as NodeJS.WriteStream

describe('canDrawLive', () => {
  it('draws on a terminal outside CI', () => {
    assert.equal(canDrawLive(tty, {}), true)
    assert.equal(canDrawLive(tty, { CI: 'false' }), true)
  })
  it('does not draw into a pipe, nor under CI (ink would show only its last frame)', () => {
    assert.equal(canDrawLive(pipe, {}), false)
    assert.equal(canDrawLive(tty, { CI: 'true' }), false)
    assert.equal(canDrawLive(tty, { CI_JOB_ID: '7' }), false)
  })
})
