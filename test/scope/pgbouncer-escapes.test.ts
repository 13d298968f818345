/**
 * Scoped work on the app login through a real PgBouncer in transaction mode, with PgBouncer's
 * default reuse and with `server_round_robin = 1`: A's scoped code tries to end its transaction
 * part-way and then leave session state (a setting, a temporary table, a session advisory lock) as
 * separate statements, which a transaction pooler would run on whichever server connection is free;
 * and leaves the same state inside its transaction before returning or throwing, whose wipe must
 * run on that transaction's server connection. B's inserts, running meanwhile, never fail, and no
 * server connection keeps anything. Skipped, with the reason, when PgBouncer cannot be obtained.
 */
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type pg from 'pg'
import { boundaryRefusals } from '../../src/db/boundary-refusals.js'
import { createPool } from '../../src/db/connect.js'
import type { DatabasePool } from '../../src/db/database-pool.js'
import { AppLoginSettingsError, TransactionEscapeError } from '../../src/errors.js'
import { User } from '../../src/scope/user.js'
import { A, B, identity, testAppLogin } from '../support/app-login.js'
import { adminQuery, baseUrl, testDatabase } from '../support/db.js'
import { type PgBouncer, pgbouncerBinary, startPgBouncer } from '../support/pgbouncer.js'
import { waitFor } from '../support/wait-for.js'

const POOL = 3
const binary = pgbouncerBinary()
const as = (scopes: string[]) => User.system(scopes, identity)
const LOCK = 424242

for (const roundRobin of [false, true]) {
  describe(`scoped work through PgBouncer (transaction pooling, server_round_robin = ${roundRobin ? 1 : 0})`, {
    skip: 'skip' in binary ? binary.skip : false,
  }, () => {
    const db = testDatabase()
    const login = testAppLogin(db, 'aizk_app')
    let bouncer: PgBouncer
    let appPool: DatabasePool
    let scoped: DatabasePool

    before(async () => {
      const direct = new URL(login.url)
      bouncer = await startPgBouncer((binary as { path: string }).path, {
        server: baseUrl(),
        poolSize: POOL,
        roundRobin,
        users: { [login.role]: decodeURIComponent(direct.password) },
      })
      const pooled = new URL(bouncer.url(db.name))
      pooled.username = direct.username
      pooled.password = direct.password
      appPool = createPool(pooled.toString(), { max: POOL + 1, namedStatements: false })
      scoped = createPool(db.url, { max: 2, appLogin: appPool })
    })
    db.beforeDrop(async () => {
      await scoped?.end().catch(() => {})
      await appPool?.end().catch(() => {})
      await bouncer?.stop()
    })

    /** B's inserts, `n` of them, `parallel` at a time: the errors they met. */
    async function bInserts(n: number, parallel: number): Promise<string[]> {
      const errors: string[] = []
      let next = 0
      const lane = async () => {
        while (next < n) {
          const i = next++
          await as([B])
            .transaction(scoped, (c) => c.query(`insert into document (scopes, title) values ($1::uuid[], $2)`, [[B], `B ${i}`]))
            .catch((err: Error) => errors.push(err.message))
        }
      }
      await Promise.all(Array.from({ length: parallel }, lane))
      return errors
    }

    /** Each server connection PgBouncer holds, seen by holding POOL transactions open at once. */
    async function serverSettings(): Promise<{ pid: number; readOnly: string; path: string; temps: number }[]> {
      const clients: pg.PoolClient[] = []
      try {
        for (let i = 0; i < POOL; i++) clients.push(await appPool.connect())
        const seen = []
        for (const c of clients) {
          await c.query('begin')
          const { rows } = await c.query<{ pid: number; read_only: string; path: string; temps: number }>(
            `select pg_backend_pid() as pid, current_setting('default_transaction_read_only') as read_only, current_setting('search_path') as path,
                    (select count(*)::int from pg_class where relnamespace = pg_my_temp_schema()) as temps`,
          )
          seen.push({ pid: rows[0].pid, readOnly: rows[0].read_only, path: rows[0].path, temps: rows[0].temps })
        }
        return seen
      } finally {
        for (const c of clients) {
          await c.query('rollback').catch(() => {})
          c.release()
        }
      }
    }

    it("A cannot end its transaction part-way and leave session state on a server connection; B's inserts never fail", async () => {
      // PgBouncer opens its POOL server connections.
      assert.deepEqual(await bInserts(POOL * 2, POOL), [])
      const victims = bInserts(120, 3)
      const enders = ['commit', 'END', '/* a comment */ commit and chain', '-- a line\nrollback', 'rollback work and no chain', 'abort', ';;commit']
      const escapesBefore = boundaryRefusals.transactionEscapes
      for (const ender of enders) {
        const after: string[] = []
        await assert.rejects(
          as([A]).transaction(scoped, async (c) => {
            await c.query(`insert into document (scopes, title) values ($1::uuid[], 'A part one')`, [[A]])
            await c.query(ender).catch(() => {})
            for (const sql of [
              `select set_config('default_transaction_read_only', 'on', false)`,
              `select set_config('search_path', 'pg_temp, public', false)`,
              'create temp table leftover (x int)',
              `select pg_advisory_lock(${LOCK})`,
            ]) {
              await c.query(sql).then(
                () => after.push(sql),
                () => {},
              )
            }
          }),
          TransactionEscapeError,
          ender,
        )
        assert.deepEqual(after, [], `nothing after ${JSON.stringify(ender)} was run`)
      }
      assert.equal(boundaryRefusals.transactionEscapes - escapesBefore, enders.length, 'each escape counted')
      // ROLLBACK TO a savepoint stays inside the transaction: allowed.
      await as([A]).transaction(scoped, async (c) => {
        await c.query('savepoint s')
        await c.query('rollback to savepoint s')
        await c.query('rollback transaction to s')
      })
      assert.deepEqual(await victims, [])
      const { rows: parts } = await db.pool.query(`select count(*)::int as n from document where title = 'A part one'`)
      assert.equal(parts[0].n, 0, "A's part-way work was rolled back with its transaction")
      await assertNothingLeft()
    })

    it('session state made inside the transaction is wiped on that server connection, whether A returns or throws', async () => {
      // Every server connection idle: with round robin, a wipe sent apart from the ROLLBACK would go to another one.
      assert.deepEqual(await bInserts(POOL * 2, POOL), [])
      const locked: boolean[] = []
      for (const ending of ['returns', 'throws'] as const) {
        for (let i = 0; i < POOL * 2; i++) {
          const attempt = as([A]).transaction(scoped, async (c) => {
            await c.query(`select set_config('default_transaction_read_only', 'on', false)`)
            await c.query(`select set_config('search_path', 'pg_temp, public', false)`)
            await c.query('create temp table leftover (x int)')
            // Not waiting: a lock an earlier attempt left on another server connection shows as false.
            locked.push((await c.query(`select pg_try_advisory_lock(${LOCK}) as got`)).rows[0].got)
            await c.query(`listen aizk_leftover`)
            if (ending === 'throws') throw new Error('A gives up')
          })
          if (ending === 'throws') await assert.rejects(attempt, /A gives up/)
          else await attempt
        }
      }
      assert.deepEqual(locked, Array(POOL * 4).fill(true), 'each attempt took the lock: none was left held')
      await assertNothingLeft()
      assert.deepEqual(await bInserts(30, 3), [])
    })

    it('a server connection that started while the login had a role default is refused, even after the default is gone', async () => {
      await adminQuery(`alter role ${login.role} set work_mem = '64kB'`)
      await dropServers()
      // PgBouncer opens POOL new server connections, each loading the default.
      const held: pg.PoolClient[] = []
      for (let i = 0; i < POOL; i++) held.push(await appPool.connect())
      for (const c of held) await c.query('begin')
      for (const c of held) {
        await c.query('rollback')
        c.release()
      }
      await adminQuery(`alter role ${login.role} reset all`)
      const outcomes: string[] = []
      for (let i = 0; i < POOL * 2; i++) {
        outcomes.push(
          await as([B])
            .transaction(scoped, async (c) => (await c.query(`select current_setting('work_mem') as w`)).rows[0].w as string)
            .catch((err: Error) => (err instanceof AppLoginSettingsError && /\(work_mem=64kB\)/.test(err.message) ? 'refused' : err.message)),
        )
      }
      assert.ok(!outcomes.includes('64kB'), `no scoped transaction ran with the default: ${outcomes}`)
      assert.ok(outcomes.includes('refused'), `${outcomes}`)
      // The operator's way out: close the server connections (PgBouncer's RECONNECT, or as here).
      await dropServers()
      assert.deepEqual(await bInserts(POOL * 2, POOL), [])
    })

    /** Close the login's server connections as an administrator; PgBouncer opens new ones. */
    async function dropServers(): Promise<void> {
      await adminQuery(`select pg_terminate_backend(pid) from pg_stat_activity where usename = $1`, [login.role])
      await waitFor(
        'the server connections to close',
        async () => (await adminQuery(`select count(*)::int as n from pg_stat_activity where usename = $1`, [login.role])).rows[0].n === 0,
        10_000,
      )
      // PgBouncer finds a closed idle server connection when it next hands it out: let it find them all.
      for (let i = 0; i < POOL * 3; i++) await appPool.query('select 1').catch(() => {})
    }

    async function assertNothingLeft(): Promise<void> {
      const { rows: locks } = await db.pool.query(
        `select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid where l.locktype = 'advisory' and a.usename = $1`,
        [login.role],
      )
      assert.equal(locks[0].n, 0, 'no session advisory lock held by a server connection of the login')
      const { rows: temps } = await db.pool.query(`select count(*)::int as n from pg_class where relpersistence = 't' and relname = 'leftover'`)
      assert.equal(temps[0].n, 0, 'no temporary table left on any server connection')
      const { rows: backends } = await db.pool.query(`select count(*)::int as n from pg_stat_activity where usename = $1 and backend_type = 'client backend'`, [
        login.role,
      ])
      assert.ok(backends[0].n <= POOL, `PgBouncer holds at most ${POOL} server connections`)
      const servers = await serverSettings()
      assert.equal(new Set(servers.map((s) => s.pid)).size, POOL, 'every server connection seen')
      for (const s of servers)
        assert.deepEqual(
          { readOnly: s.readOnly, path: s.path, temps: s.temps },
          { readOnly: 'off', path: '"$user", public', temps: 0 },
          `server connection ${s.pid}`,
        )
    }
  })
}
