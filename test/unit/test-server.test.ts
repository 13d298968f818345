// The embedded test server test/run.mjs uses is stopped by the last of this user's concurrent
// runs to end, never under a run still using it; a killed run's registration keeps nothing up.
// The lock is the embedded server's own start lock; the server is a recorder of starts and stops
// (starting a real one per case would cost more than the rule it checks).
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { withStartLock } from '../../src/db/embedded-lock.js'
import { acquireTestServer } from '../support/test-server.mjs'

const dirs: string[] = []
const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], { stdio: 'ignore' })
after(() => {
  sleeper.kill('SIGKILL')
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

function fixture() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aizk-test-server-unit-'))
  dirs.push(dataDir)
  const calls: string[] = []
  const embedded = {
    async ensureEmbeddedServer() {
      calls.push('ensure')
      return { url: 'postgres://127.0.0.1:1/aizk', port: 1, started: false }
    },
    async stopEmbeddedServer() {
      calls.push('stop')
      await new Promise((r) => setTimeout(r, 300)) // a stop takes a while: pg_ctl waits for the shutdown
      calls.push('stopped')
      return true
    },
  }
  const acquire = (pid: number) => acquireTestServer({ dataDir, env: {}, embedded, lock: { withStartLock }, pid })
  return { dataDir, calls, acquire }
}

describe('the embedded test server across concurrent runs', () => {
  it('the first run to end leaves it to the other; the last stops it', async () => {
    const { calls, acquire } = fixture()
    const a = await acquire(process.pid)
    const b = await acquire(sleeper.pid as number)
    assert.equal(await a.release(), false)
    assert.deepEqual(calls, ['ensure', 'ensure'])
    assert.equal(await b.release(), true)
    assert.deepEqual(calls, ['ensure', 'ensure', 'stop', 'stopped'])
  })

  it('a killed run left its registration: it keeps nothing up, and is removed', async () => {
    const { dataDir, calls, acquire } = fixture()
    const run = await acquire(process.pid)
    writeFileSync(path.join(dataDir, 'test-runs', '999999999'), '')
    assert.equal(await run.release(), true)
    assert.deepEqual(calls, ['ensure', 'stop', 'stopped'])
    assert.deepEqual(readdirSync(path.join(dataDir, 'test-runs')), [])
  })

  it('a run starting while another stops the server waits for the stop, then starts it', async () => {
    const { calls, acquire } = fixture()
    const a = await acquire(process.pid)
    const stopping = a.release()
    while (!calls.includes('stop')) await new Promise((r) => setTimeout(r, 5))
    const b = await acquire(sleeper.pid as number)
    assert.equal(await stopping, true)
    assert.deepEqual(calls, ['ensure', 'stop', 'stopped', 'ensure'], 'the second run asked for the server after the stop, not during it')
    assert.equal(await b.release(), true)
  })
})
