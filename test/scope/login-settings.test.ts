/**
 * The login itself (docs/security.md#the-login-itself): after `RESET ROLE` a scoped transaction
 * is the app login, and PostgreSQL lets a role set its own defaults and its own password. A role
 * default reaches every new connection of the login, so scoped work refuses to run while the login
 * has one (exit 3, counted), on connections that loaded one as well, and start-up refuses such a
 * login. The password cannot be kept from the login: what keeps a tenant from locking the others
 * out is an authentication that does not read it.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type pg from 'pg'
import { checkAppLogin } from '../../src/db/app-login.js'
import { boundaryRefusals } from '../../src/db/boundary-refusals.js'
import { createPool } from '../../src/db/connect.js'
import { AppLoginSettingsError, ConfigError } from '../../src/errors.js'
import { WorkerEvents } from '../../src/events.js'
import { ingestOriginal } from '../../src/ingest/ingest.js'
import { appLoginBegin } from '../../src/scope/sql/user.js'
import { User } from '../../src/scope/user.js'
import { parseSettings } from '../../src/settings.js'
import { createWorkerMetrics } from '../../src/worker/metrics.js'
import { A, B, fileAppLogin, identity } from '../support/app-login.js'
import { adminQuery, fileDatabase } from '../support/db.js'

const db = await fileDatabase()
const app = await fileAppLogin(db)
const settings = { ...parseSettings({}), ...identity }
const as = (scopes: string[]) => User.system(scopes, identity)

/** `fn` on fresh connections of the login: pools of their own, as a new process would open. */
async function freshly<T>(fn: (scoped: pg.Pool, loginPool: pg.Pool) => Promise<T>): Promise<T> {
  const loginPool = createPool(app.url, { max: 1 })
  const scoped = createPool(db.url, { max: 1, appLogin: loginPool })
  try {
    return await fn(scoped, loginPool)
  } finally {
    await scoped.end()
    await loginPool.end()
  }
}

/** B's next ingest, on fresh connections. */
function bIngests(note: string) {
  return freshly((scoped) =>
    ingestOriginal(scoped, settings, { scopes: [B], bytes: Buffer.from(`# B\n\n${note}\n`), filename: 'b.md', mediaType: 'text/markdown' }),
  )
}

db.beforeDrop(async () => {
  await adminQuery(`alter role ${app.role} reset all`).catch(() => {})
})

describe("a tenant cannot change what another tenant's next connection gets", () => {
  it('a role default A writes on the login refuses every scoped transaction (exit 3, counted) until an administrator removes it', async () => {
    await as([A]).transaction(app.scoped, async (c) => {
      await c.query('reset role')
      await c.query(`alter role ${app.role} set default_transaction_read_only = on`)
      await c.query(`alter role ${app.role} in database ${db.name} set row_security = off`)
    })
    const before = boundaryRefusals.loginSettings
    const refused = await bIngests('the first try').catch((err: Error) => err)
    assert.ok(refused instanceof AppLoginSettingsError, String(refused))
    assert.equal(refused.exitCode, 3)
    assert.match(refused.message, new RegExp(`app login ${app.role} has role-level settings \\(default_transaction_read_only=on, row_security=off\\)`))
    assert.match(refused.hint ?? '', /ALTER ROLE .* RESET ALL/)
    // Connections opened earlier refuse too: the check reads the catalog on every transaction.
    await assert.rejects(
      as([B]).transaction(app.scoped, (c) => c.query('select 1')),
      AppLoginSettingsError,
    )
    assert.equal(boundaryRefusals.loginSettings, before + 2)
    const metrics = createWorkerMetrics({ events: new WorkerEvents(), processMetrics: false })
    try {
      assert.match(await metrics.render(), new RegExp(`aizk_app_login_settings_refusals_total ${before + 2}`))
    } finally {
      metrics.detach()
    }
    // Start-up refuses the login too (openDatabase runs checkAppLogin): exit 3.
    await assert.rejects(
      checkAppLogin(app.pool, 'aizk_app'),
      (err: Error) => err instanceof ConfigError && /role-level settings \(default_transaction_read_only=on, row_security=off\)/.test(err.message),
    )
    const { rows } = await db.pool.query(`select count(*)::int as n from document`)
    assert.equal(rows[0].n, 0, 'nothing written half-way')

    await adminQuery(`alter role ${app.role} reset all`)
    await adminQuery(`alter role ${app.role} in database ${db.name} reset all`)
    const ingested = await bIngests('after the administrator')
    const landed = await db.pool.query('select scopes::text[] as scopes from artifact where id = $1', [ingested.artifactId])
    assert.deepEqual(landed.rows, [{ scopes: [B] }])
  })

  it('a connection that loaded a role default is refused and closed even after the default is gone', async () => {
    await freshly((scoped) =>
      as([A]).transaction(scoped, async (c) => {
        await c.query('reset role')
        await c.query(`alter role ${app.role} set work_mem = '64kB'`)
      }),
    )
    await freshly(async (scoped, loginPool) => {
      // A connection opens while the default is there, and goes idle in the pool.
      const c = await loginPool.connect()
      const poisoned = (await c.query('select pg_backend_pid() as pid')).rows[0].pid
      c.release()
      await adminQuery(`alter role ${app.role} reset all`)
      await assert.rejects(
        as([B]).transaction(scoped, (t) => t.query('select 1')),
        (err: Error) => err instanceof AppLoginSettingsError && /\(work_mem=64kB\)/.test(err.message),
      )
      const next = await as([B]).transaction(scoped, async (t) => ({
        pid: (await t.query('select pg_backend_pid() as pid')).rows[0].pid,
        workMem: (await t.query(`select current_setting('work_mem') as w`)).rows[0].w,
      }))
      assert.notEqual(next.pid, poisoned, 'the connection that carried the default was closed')
      assert.notEqual(next.workMem, '64kB')
    })
  })

  it('behind a transaction pooler a server connection is known by its pid and start time, which only the login sees', async () => {
    await freshly(async (_scoped, loginPool) => {
      const c = await loginPool.connect()
      try {
        const first = (await c.query(appLoginBegin('aizk_app', []))) as unknown as pg.QueryResult[]
        await c.query('rollback')
        const { backend, login_settings } = first[1].rows[0]
        assert.match(String(backend), /^[0-9]+@[0-9.]+$/)
        assert.equal(login_settings, null)
        const known = (await c.query(appLoginBegin('aizk_app', [backend]))) as unknown as pg.QueryResult[]
        await c.query('rollback')
        assert.equal(known[1].rows[0].backend, backend)
      } finally {
        c.release()
      }
    })
  })

  it('as the app role (before RESET ROLE) A can change neither the login nor what applies to it; as the login it can', async () => {
    const outcome: Record<string, string> = {}
    await assert.rejects(
      freshly((scoped) =>
        as([A]).transaction(scoped, async (c) => {
          const attempt = async (name: string, sql: string) => {
            await c.query('savepoint s')
            outcome[name] = await c.query(sql).then(
              () => 'allowed',
              (err: Error) => err.message,
            )
            await c.query('rollback to savepoint s')
          }
          await attempt('login password as the app role', `alter role ${app.role} password 'taken'`)
          await attempt('login default as the app role', `alter role ${app.role} set work_mem = '64kB'`)
          // Its own defaults apply to sessions that log in as it: the app role has no login.
          await attempt('app role default as the app role', `alter role aizk_app set work_mem = '64kB'`)
          await attempt('app role login as the app role', 'alter role aizk_app login')
          await c.query('reset role')
          await attempt('login password as the login', `alter role ${app.role} password 'taken'`)
          await attempt('login default as the login', `alter role ${app.role} set work_mem = '64kB'`)
          throw new Error('rolled back: nothing of this stays')
        }),
      ),
      /rolled back/,
    )
    assert.deepEqual(outcome, {
      'login password as the app role': 'permission denied',
      'login default as the app role': 'permission denied',
      'app role default as the app role': 'allowed',
      'app role login as the app role': 'permission denied',
      'login password as the login': 'allowed',
      'login default as the login': 'allowed',
    })
  })

  it("A's new password for the login commits; a server that authenticates the login without its password lets B connect after it", async () => {
    const { rows: hba } = await adminQuery(
      `select auth_method from pg_hba_file_rules where type = 'host' and 'all' = any(database) and error is null order by line_number limit 1`,
    )
    await freshly((scoped) =>
      as([A]).transaction(scoped, async (c) => {
        await c.query('reset role')
        await c.query(`alter role ${app.role} password 'chosen by A'`)
      }),
    )
    const { rows } = await adminQuery(`select rolpassword is not null as set from pg_authid where rolname = $1`, [app.role])
    assert.equal(rows[0].set, true)
    const method = hba[0]?.auth_method as string | undefined
    if (method === 'trust' || method === 'cert' || method === 'peer') {
      const ingested = await bIngests('after the new password')
      assert.ok(ingested.artifactId)
    } else {
      // This server reads the password (scram or md5): B's login is locked out, as the docs warn.
      await assert.rejects(bIngests('after the new password'), /authentication failed|password/)
    }
  })
})
