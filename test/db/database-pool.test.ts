/**
 * What the pool openDatabase returns carries, and what a pool of the application's own gets
 * instead: scoped work refused rather than run on the owner login when the settings name an app
 * login, and parity log rows only when asked.
 */
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import pg from 'pg'
import { type Database, openDatabase } from '../../src/db/database.js'
import { OwnerAccessError } from '../../src/errors.js'
import { enqueue } from '../../src/queue/enqueue.js'
import { User } from '../../src/scope/user.js'
import { parseSettings } from '../../src/settings.js'
import { A, fileAppLogin } from '../support/app-login.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase()
const app = await fileAppLogin(db)
let opened: Database
let plain: pg.Pool

before(async () => {
  opened = await openDatabase(parseSettings({ AIZK_DATABASE_URL: db.url, AIZK_APP_DATABASE_URL: app.url, AIZK_QUEUE_LOG_PARITY: 'true' }))
  plain = new pg.Pool({ connectionString: db.url, max: 2 })
})
db.beforeDrop(async () => {
  await plain?.end()
  await opened?.close()
})

const queuedLogRows = async (entrypoint: string) =>
  (await db.pool.query<{ n: number }>("select count(*)::int as n from pgqueuer_log where entrypoint = $1 and status = 'queued'", [entrypoint])).rows[0].n

describe('the pools openDatabase opens', () => {
  it('carry the app login: a scoped transaction on them runs as that login', async () => {
    assert.ok(opened.pool.appLogin, 'the owner pool carries no app login')
    const settings = parseSettings({ AIZK_DATABASE_URL: db.url, AIZK_APP_DATABASE_URL: app.url })
    const login = await User.system([A], settings).transaction(
      opened.pool,
      async (c) => (await c.query<{ u: string }>('select session_user::text as u')).rows[0].u,
    )
    assert.equal(login, app.role)
    const extra = opened.addPool({ max: 1 })
    assert.equal(extra.appLogin !== undefined, true)
  })

  it('refuse scoped work on a plain pool when the settings name an app login, instead of running it on the owner', async () => {
    const settings = parseSettings({ AIZK_DATABASE_URL: db.url, AIZK_APP_DATABASE_URL: app.url })
    let ran = false
    await assert.rejects(
      User.system([A], settings).transaction(plain, async () => {
        ran = true
      }),
      (err: unknown) => err instanceof OwnerAccessError && /AIZK_APP_DATABASE_URL/.test(err.message),
    )
    await assert.rejects(User.system([A], settings).readOnce(plain, 'select 1'), OwnerAccessError)
    assert.equal(ran, false)
    // Without an app login in the settings, the plain pool is the owner login, as documented.
    const owner = parseSettings({ AIZK_DATABASE_URL: db.url })
    assert.equal(
      await User.system([A], owner).transaction(plain, async (c) => (await c.query<{ r: string }>('select current_user::text as r')).rows[0].r),
      'aizk_app',
    )
  })

  it('carry log parity to the pool and to each of its clients; a plain pool writes parity rows only when asked', async () => {
    await enqueue(opened.pool, { entrypoint: 'parity_pool' })
    const client = await opened.pool.connect()
    try {
      await enqueue(client, { entrypoint: 'parity_client' })
    } finally {
      client.release()
    }
    await enqueue(plain, { entrypoint: 'parity_plain' })
    await enqueue(plain, { entrypoint: 'parity_plain_asked' }, { logQueued: true })
    assert.deepEqual(
      [
        await queuedLogRows('parity_pool'),
        await queuedLogRows('parity_client'),
        await queuedLogRows('parity_plain'),
        await queuedLogRows('parity_plain_asked'),
      ],
      [1, 1, 0, 1],
    )
  })
})
