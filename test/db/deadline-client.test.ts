/**
 * The deadline on each round trip (src/db/deadline-client.ts), through a TCP proxy that stalls:
 * a query past its deadline fails as a lost connection, its connection is destroyed and never
 * handed out again, the pool works once the path is back, and closing a pool ends in time.
 */
import assert from 'node:assert/strict'
import { after, afterEach, before, describe, it } from 'node:test'
import { closePool, createPool, isConnectionError } from '../../src/db/connect.js'
import { DEADLINE_CODE } from '../../src/db/deadline-client.js'
import { createTestDatabase, type TestDatabase } from '../support/db.js'
import { type StallProxy, startStallProxy } from '../support/stall-proxy.js'

let db: TestDatabase
let proxy: StallProxy

before(async () => {
  db = await createTestDatabase()
})
afterEach(async () => {
  await proxy?.close()
})
after(async () => {
  await db.drop()
})

describe('a deadline on each round trip', () => {
  it('fails a query whose reply is lost, destroys its connection, and the pool goes on once the path is back', async () => {
    proxy = await startStallProxy(db.url)
    // The handshake shares the deadline. 1.5 s, not less: two suites sharing two cores once took
    // over 0.5 s for a scram handshake through the proxy, before any stall.
    const deadlineMs = 1500
    const pool = createPool(proxy.url, { max: 2, deadlineMs })
    try {
      const pidBefore = (await pool.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid
      // A client checked out for a transaction before the stall: its holder releases it plainly.
      const held = await pool.connect()
      proxy.stall()
      const t0 = Date.now()
      const err = await pool.query('select 1').then(
        () => assert.fail('the query answered through a stalled path'),
        (e: unknown) => e,
      )
      const tookMs = Date.now() - t0
      // The pool opens a new connection for it, and the handshake meets the same deadline.
      assert.ok(isConnectionError(err), `a lost connection, not an SQL error: ${err}`)
      assert.ok(tookMs >= deadlineMs - 50 && tookMs < 2 * deadlineMs + 2000, `failed after ${tookMs} ms (deadline ${deadlineMs} ms)`)
      await assert.rejects(held.query('select 1'), (e: { code?: string }) => e.code === DEADLINE_CODE)
      held.release()
      assert.equal(pool.idleCount, 0, 'neither connection whose reply was lost is handed out again')
      proxy.resume()
      const { rows } = await pool.query<{ pid: number }>('select pg_backend_pid() as pid')
      assert.notEqual(rows[0].pid, pidBefore, 'a new connection, not the one whose reply was lost')
      assert.ok(pool.totalCount <= 2)
    } finally {
      proxy.resume()
      await closePool(pool, 1000)
    }
  })

  it('closes a pool within its grace even when its connections went silent', async () => {
    proxy = await startStallProxy(db.url, { holdFin: true })
    const pool = createPool(proxy.url, { max: 2, deadlineMs: 5000 })
    await Promise.all([pool.query('select pg_sleep(0.05)'), pool.query('select pg_sleep(0.05)')])
    assert.equal(pool.totalCount, 2)
    proxy.stall()
    const t0 = Date.now()
    const destroyed = await closePool(pool, 300)
    const tookMs = Date.now() - t0
    assert.equal(destroyed, 2, 'both idle connections waited in vain for a goodbye')
    assert.ok(tookMs < 2000, `closed after ${tookMs} ms (grace 300 ms)`)
  })

  it('leaves a pool without a deadline waiting as before (keepalive only)', async () => {
    proxy = await startStallProxy(db.url)
    const pool = createPool(proxy.url, { max: 1 })
    try {
      await pool.query('select 1')
      proxy.stall()
      const pending = pool.query('select 1')
      const outcome = await Promise.race([pending.then(() => 'answered', () => 'failed'), new Promise((r) => setTimeout(() => r('waiting'), 800))])
      assert.equal(outcome, 'waiting')
      pending.catch(() => {})
    } finally {
      await closePool(pool, 200)
    }
  })
})
