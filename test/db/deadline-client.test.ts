/**
 * The deadline on each round trip (src/db/deadline-client.ts), through a TCP proxy that stalls:
 * a query past its deadline fails as a lost connection, its connection is destroyed and never
 * handed out again, the pool works once the path is back, and closing a pool ends in time.
 */
import assert from 'node:assert/strict'
import { afterEach, describe, it } from 'node:test'
import { closePool, createPool, isConnectionError } from '../../src/db/connect.js'
import { DatabasePool } from '../../src/db/database-pool.js'
import { CallTracker, DEADLINE_CODE } from '../../src/db/deadline-client.js'
import { withStatementDeadline } from '../../src/db/statement-deadline.js'
import { fileDatabase } from '../support/db.js'
import { type StallProxy, startStallProxy } from '../support/stall-proxy.js'
import { waitFor } from '../support/wait-for.js'

const db = await fileDatabase()
let proxy: StallProxy

afterEach(async () => {
  await proxy?.close()
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
      const outcome = await Promise.race([
        pending.then(
          () => 'answered',
          () => 'failed',
        ),
        new Promise((r) => setTimeout(() => r('waiting'), 800)),
      ])
      assert.equal(outcome, 'waiting')
      pending.catch(() => {})
    } finally {
      await closePool(pool, 200)
    }
  })

  it('gives the statements run through withStatementDeadline its deadline, and only those', async () => {
    const deadlineMs = 1000
    const pool = createPool(db.url, { max: 1, deadlineMs })
    try {
      const err = await pool.query('select pg_sleep(1.6)').then(
        () => assert.fail('a statement longer than the pool deadline answered'),
        (e: unknown) => e,
      )
      assert.equal((err as { code?: string }).code, DEADLINE_CODE, `the pool's own deadline ended it: ${err}`)
      const long = withStatementDeadline(pool, 10)
      assert.ok(long instanceof DatabasePool, 'the view is still the pool to the scope module and the worker')
      // One connection: the long statement waits for the one a plain statement holds.
      const plain = pool.query('select pg_sleep(0.2)')
      const waited = long.query<{ ok: number }>('select 1 as ok from pg_sleep(1.6)')
      await plain
      assert.equal((await waited).rows[0].ok, 1, 'the statement through the view kept its deadline')
      const client = await long.connect()
      try {
        assert.equal((await client.query<{ ok: number }>('select 2 as ok from pg_sleep(1.6)')).rows[0].ok, 2, 'a client checked out through it too')
      } finally {
        client.release()
      }
      await assert.rejects(
        pool.query('select pg_sleep(1.6)'),
        (e: { code?: string }) => e.code === DEADLINE_CODE,
        'the same connection, through the pool: its deadline again',
      )
      assert.equal(withStatementDeadline(pool, 10), long, 'one view per pool and deadline')
      assert.throws(() => withStatementDeadline(pool, -1), /a statement deadline must be 0 \(none\)/)
    } finally {
      await closePool(pool, 1000)
    }
  })

  it('counts a statement run without a deadline (withStatementDeadline 0) among the calls on their way, never as the oldest with one', async () => {
    const pool = createPool(db.url, { max: 1, deadlineMs: 1000 })
    try {
      const calls = (pool as DatabasePool).calls
      // The connection is made first, so the clock below starts with the statement itself.
      await pool.query('select 1')
      const running = withStatementDeadline(pool, 0).query('select pg_sleep(1.3)')
      await waitFor('the statement without a deadline to be tracked', () => calls.size === 1, 1000)
      assert.equal(calls.oldestAgeMs(), 0, 'not as a call with a deadline')
      assert.equal(calls.overdue(0), 0, 'it has no deadline to be past')
      await waitFor('the statement to count past a 100 ms bound for calls without a deadline (the job timeout)', () => calls.overdue(0, 100) === 1, 1000)
      assert.equal(calls.overdue(0), 0, 'and still never past a deadline of its own')
      await running
      assert.equal(calls.size, 0, 'and forgotten once it answered')
    } finally {
      await closePool(pool, 1000)
    }
  })

  it('counts the calls still on their way past their own deadline', async () => {
    const calls = new CallTracker()
    const bounded = calls.begin(20)
    calls.begin(0)
    calls.begin(60_000)
    await new Promise((resolve) => setTimeout(resolve, 60))
    assert.equal(calls.overdue(0), 1, 'only the call with a 20 ms deadline is past it; one without a deadline never is')
    assert.equal(calls.overdue(1000), 0, 'within the slack')
    assert.equal(calls.overdue(0, 30), 2, 'with a bound for calls without a deadline (the job timeout), the open one past it too')
    assert.equal(calls.overdue(0, 60_000), 1, 'not before it')
    assert.equal(calls.size, 3)
    calls.end(bounded)
    assert.equal(calls.overdue(0), 0)
  })
})
