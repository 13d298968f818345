/**
 * A server that answers but refuses writes is a connection fault (src/db/read-only.ts): the
 * classifier says so, a pooled connection that met a refusal is closed instead of reused however
 * its holder released it, and a command's connect refuses a read-only server (exit 4,
 * `database_read_only`) unless it only reads. Read-only sessions come from the connection's own
 * startup option (`options=-c default_transaction_read_only=on`), so the shared server is untouched.
 */
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { checkConnection, closePool, connectionError, createPool, isConnectionError } from '../../src/db/connect.js'
import { isWriteRefused } from '../../src/db/read-only.js'
import { withTransaction } from '../../src/db/sql/transaction.js'
import { DatabaseReadOnlyError, ExitCode } from '../../src/errors.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase()
let readOnlyUrl: string

before(async () => {
  await db.pool.query('create table ro_probe (n int)')
  const u = new URL(db.url)
  u.searchParams.set('options', '-c default_transaction_read_only=on')
  readOnlyUrl = u.toString()
})

describe('read-only servers as connection faults', () => {
  it('classifies a refused write, a standby-only refusal and an administrator shutdown as connection errors', async () => {
    const pool = createPool(readOnlyUrl, { max: 1 })
    try {
      const refused = await pool.query('insert into ro_probe values (1)').then(
        () => assert.fail('the write went through'),
        (err: Error & { code?: string }) => err,
      )
      assert.equal(refused.code, '25006')
      assert.ok(isWriteRefused(refused) && isConnectionError(refused))
    } finally {
      await closePool(pool, 1000)
    }
    const recovery = Object.assign(new Error('cannot execute LISTEN during recovery'), { code: '55000' })
    assert.ok(isConnectionError(recovery) && isWriteRefused(recovery))
    assert.ok(isConnectionError(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })))
    assert.ok(isConnectionError(Object.assign(new Error('the database system is in recovery mode'), { code: '57P03' })))
    assert.ok(isConnectionError(Object.assign(new Error('protocol violation'), { code: '08P01' })))
    // The statement's own fault stays an SQL error: a constraint, a syntax error.
    assert.equal(isConnectionError(Object.assign(new Error('duplicate key'), { code: '23505' })), false)
    const mapped = connectionError(refusalError(), 'postgres://h:5433/db')
    assert.ok(mapped instanceof DatabaseReadOnlyError)
    assert.equal(mapped.exitCode, ExitCode.database)
    assert.match(mapped.hint ?? '', /AIZK_DATABASE_URL at the primary/)
  })

  it('closes a pooled connection that met a refused write, through pool.query and through a transaction', async () => {
    const pool = createPool(readOnlyUrl, { max: 1 })
    try {
      const pid = async () => (await pool.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid
      const first = await pid()
      assert.equal(await pid(), first, 'a read is no fault: the connection is reused')
      await assert.rejects(pool.query('insert into ro_probe values (1)'), { code: '25006' })
      const second = await pid()
      assert.notEqual(second, first, 'pool.query: a new connection after the refusal')
      // ROLLBACK succeeds on a read-only server, so the holder releases the client plainly.
      await assert.rejects(
        withTransaction(pool, (c) => c.query('insert into ro_probe values (2)')),
        { code: '25006' },
      )
      assert.notEqual(await pid(), second, 'a transaction: the connection is closed, not returned')
    } finally {
      await closePool(pool, 1000)
    }
  })

  it('refuses a read-only server at connect unless the command only reads', async () => {
    const pool = createPool(readOnlyUrl, { max: 1 })
    try {
      await assert.rejects(checkConnection(pool, readOnlyUrl, { writable: true }), (err: Error) => {
        assert.ok(err instanceof DatabaseReadOnlyError, String(err))
        assert.equal(err.code, 'database_read_only')
        assert.match(err.message, /is read-only \(default_transaction_read_only is on\)/)
        return true
      })
      await checkConnection(pool, readOnlyUrl)
      const writable = createPool(db.url, { max: 1 })
      await checkConnection(writable, db.url, { writable: true }).finally(() => closePool(writable, 1000))
    } finally {
      await closePool(pool, 1000)
    }
  })
})

function refusalError(): Error {
  return Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' })
}
