/**
 * Issue 11's escapes, tried as the app role on the real server: a scoped transaction that forges
 * its scope settings, reuses another transaction's proof, resets its role or commits its way out;
 * a tenant that stores bytes under another file's hash or probes whether content exists; a
 * tenant that reads other tenants' queue payloads. Each must get nowhere.
 */
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import pg from 'pg'
import { checkAppLogin } from '../../src/db/app-login.js'
import { ConfigError, TransactionEscapeError } from '../../src/errors.js'
import { ingestOriginal } from '../../src/ingest/ingest.js'
import { enqueue } from '../../src/queue/enqueue.js'
import { User } from '../../src/scope/user.js'
import { parseSettings } from '../../src/settings.js'
import { A, B, C, fileAppLogin, identity } from '../support/app-login.js'
import { runCli } from '../support/cli.js'
import { adminQuery, fileDatabase } from '../support/db.js'

const db = await fileDatabase()
const app = await fileAppLogin(db)
const as = (scopes: string[]) => User.system(scopes, identity)
const titles = async (c: pg.PoolClient) => (await c.query('select title from document order by title')).rows.map((r) => r.title)

before(async () => {
  for (const set of [[A], [B], [C], [A, B]]) {
    await as(set).transaction(app.scoped, (c) => c.query('insert into document (scopes, title) values ($1::uuid[], $2)', [set, set.map((s) => s[0]).join('')]))
  }
})

describe('a scoped transaction cannot widen itself', () => {
  it('set_config of wider sets inside the transaction shows nothing more (it shows nothing at all)', async () => {
    const seen = await as([A]).transaction(app.scoped, async (c) => {
      const before = await titles(c)
      await c.query(`select set_config('aizk.read_scopes', $1, true), set_config('aizk.write_scopes', $1, true)`, [`{${A},${B},${C}}`])
      return { before, after: await titles(c) }
    })
    assert.deepEqual(seen.before, ['a'])
    assert.deepEqual(seen.after, [])
  })

  it('a forged write set cannot insert a row for another tenant', async () => {
    const err = await as([A]).transaction(app.scoped, async (c) => {
      await c.query(`select set_config('aizk.read_scopes', $1, true), set_config('aizk.write_scopes', $1, true)`, [`{${B}}`])
      return c.query("insert into document (scopes, title) values ($1::uuid[], 'planted')", [[B]]).catch((e: Error) => e)
    })
    assert.match(String(err), /row-level security/)
  })

  it("another transaction's proof, copied in with its sets, is refused", async () => {
    const stolen = await as([A, B]).transaction(app.scoped, async (c) => (await c.query("select current_setting('aizk.scope_proof') as p")).rows[0].p as string)
    const seen = await as([A]).transaction(app.scoped, async (c) => {
      await c.query(`select set_config('aizk.read_scopes', $1, true), set_config('aizk.write_scopes', $1, true), set_config('aizk.scope_proof', $2, true)`, [
        `{${A},${B}}`,
        stolen,
      ])
      return titles(c)
    })
    assert.deepEqual(seen, [])
  })

  it('RESET ROLE leads to the login, which reads nothing and cannot become the owner', async () => {
    await as([A]).transaction(app.scoped, async (c) => {
      await c.query('reset role')
      assert.equal((await c.query('select current_user::text as u')).rows[0].u, app.role)
      await assert.rejects(c.query('select title from document'), /permission denied/)
    })
    const owner = (await db.pool.query("select tableowner from pg_tables where tablename = 'document'")).rows[0].tableowner
    await assert.rejects(
      as([A]).transaction(app.scoped, (c) => c.query(`set role "${owner}"`)),
      /permission denied/,
    )
  })

  it('committing out of the transaction is refused before it is sent, alone or hidden in a batch', async () => {
    let rows: unknown[] | undefined
    await assert.rejects(
      as([A]).transaction(app.scoped, async (c) => {
        await c.query(`commit; begin; set local role aizk_app; select set_config('aizk.read_scopes', '{${A},${B},${C}}', true)`).catch(() => {})
        // Even with the refusal swallowed, nothing more is sent and the callback fails.
        rows = await titles(c).catch(() => undefined)
      }),
      (err: Error) => err instanceof TransactionEscapeError && /would end the scoped transaction/.test(err.message),
    )
    assert.equal(rows, undefined)
    await assert.rejects(
      as([A]).transaction(app.scoped, (c) => c.query(`select 1; commit; select set_config('aizk.read_scopes', '{${A},${B},${C}}', true)`)),
      /cannot insert multiple commands into a prepared statement/,
    )
  })

  it('a key of its own in a temporary table, and a proof made with it, are not accepted', async () => {
    const seen = await as([A]).transaction(app.scoped, async (c) => {
      await c.query(`create temp table aizk_scope_key (one boolean, ipad bytea, opad bytea) on commit drop`)
      await c.query(`insert into pg_temp.aizk_scope_key values (true, decode(repeat('36', 64), 'hex'), decode(repeat('5c', 64), 'hex'))`)
      const wide = `{${A},${B},${C}}`
      await c.query(
        `select set_config('aizk.read_scopes', $1, true), set_config('aizk.write_scopes', $1, true),
                set_config('aizk.scope_proof', (select encode(sha256(k.opad || sha256(k.ipad || convert_to(
                  $1::uuid[]::text || '|' || $1::uuid[]::text || '|' || pg_backend_pid()::text || '|'
                  || extract(epoch from transaction_timestamp())::text, 'UTF8'))), 'hex') from pg_temp.aizk_scope_key k), true)`,
        [wide],
      )
      return titles(c)
    })
    assert.deepEqual(seen, [])
    // The same computation with the real key is the real proof: only the key was missing.
    const { rows } = await db.pool.query(
      `select aizk_scope_proof($1, $1, 42, '2026-01-01T00:00:00.123456Z') = (select encode(sha256(k.opad || sha256(k.ipad || convert_to(
         $1::uuid[]::text || '|' || $1::uuid[]::text || '|' || '42' || '|'
         || extract(epoch from '2026-01-01T00:00:00.123456Z'::timestamptz)::text, 'UTF8'))), 'hex') from aizk_scope_key k) as same`,
      [`{${A}}`],
    )
    assert.equal(rows[0].same, true)
  })

  it('the app role cannot read the proof key', async () => {
    await as([A]).transaction(app.scoped, async (c) => {
      await assert.rejects(c.query('select * from public.aizk_scope_key'), /permission denied/)
    })
  })

  it('an app login that can become the owner is refused at start-up (exit 3)', async () => {
    const role = `aizk_test_bad_${process.pid}`
    await adminQuery(`create role ${role} login password 'x' in role aizk_app, ${(await db.pool.query('select current_user as u')).rows[0].u}`)
    const url = new URL(db.url)
    url.username = role
    url.password = 'x'
    const pool = new pg.Pool({ connectionString: url.toString(), max: 1 })
    try {
      await assert.rejects(checkAppLogin(pool, 'aizk_app'), (err: unknown) => err instanceof ConfigError && /can become/.test(err.message))
      await checkAppLogin(app.pool, 'aizk_app')
    } finally {
      await pool.end()
      await adminQuery(`drop role ${role}`)
    }
  })
})

describe('AIZK_APP_DATABASE_URL through the CLI', () => {
  it('scoped work runs on that login; a login that can become the owner is refused with exit 3', async () => {
    const env = { AIZK_DATABASE_URL: db.url, AIZK_APP_DATABASE_URL: app.url }
    const ok = await runCli(['ingest', 'package.json', '--scope', C, '--json'], { env })
    assert.equal(ok.code, 0, ok.stderr)
    assert.deepEqual(JSON.parse(ok.stdout).scopes, [C])
    const owner = await runCli(['ingest', 'package.json', '--scope', C], { env: { ...env, AIZK_APP_DATABASE_URL: db.url } })
    assert.equal(owner.code, 3, owner.stderr)
    assert.match(owner.stderr, /AIZK_APP_DATABASE_URL: login \S+ is a superuser|can become/)
  })
})

describe('content is stored only under the hash of its own bytes', () => {
  const settings = { ...parseSettings({}), ...identity }

  it("a tenant cannot plant bytes under another file's hash, and the victim gets its own bytes", async () => {
    const victim = Buffer.from('# A private report\n\nonly tenant A wrote this.\n')
    const { createHash } = await import('node:crypto')
    const hash = createHash('sha256').update(victim).digest('hex')
    const planted = await as([B]).transaction(app.scoped, (c) =>
      c.query('insert into aizk_content (content_id, bytes, byte_size) values ($1, $2, 5)', [hash, Buffer.from('evil!')]).catch((e: Error) => e),
    )
    assert.match(String(planted), /permission denied/)
    const stored = await as([B]).transaction(app.scoped, (c) => c.query('select aizk_store_content($1) as id', [Buffer.from('evil!')]))
    assert.notEqual(stored.rows[0].id, hash)
    // Even the owner cannot store bytes under a hash that is not theirs.
    await assert.rejects(
      db.pool.query('insert into aizk_content (content_id, scopes, bytes, byte_size) values ($1, $3::uuid[], $2, 5)', [hash, Buffer.from('evil!'), [A]]),
      /aizk_content_id_is_hash_of_bytes/,
    )
    const result = await ingestOriginal(app.scoped, settings, { scopes: [A], bytes: victim, filename: 'victim.md', mediaType: 'text/markdown' })
    const bytes = await as([A]).transaction(app.scoped, (c) => c.query('select bytes from aizk_content where content_id = $1', [result.contentId]))
    assert.equal(Buffer.compare(bytes.rows[0].bytes, victim), 0)
  })

  it("storing tells a tenant nothing about whether another tenant's content exists", async () => {
    const secret = Buffer.from('tenant C keeps this')
    await ingestOriginal(app.scoped, settings, { scopes: [C], bytes: secret, filename: 'c.txt', mediaType: 'text/plain' })
    const probe = (bytes: Buffer) =>
      as([B]).transaction(app.scoped, async (c) => {
        const stored = await c.query('select aizk_store_content($1) as id', [bytes])
        const visible = await c.query('select count(*)::int as n from aizk_content where content_id = $1', [stored.rows[0].id])
        return { rowCount: stored.rowCount, visible: visible.rows[0].n }
      })
    assert.deepEqual(await probe(secret), await probe(Buffer.from('nobody stored this')))
    // B sees the copy it stored itself (content is kept per scope set), never C's.
    assert.deepEqual(await probe(secret), { rowCount: 1, visible: 1 })
  })
})

describe('the queue under row security for the app role', () => {
  it("a tenant enqueues its own set's jobs through the one door and reads no queue row, never another tenant's payloads", async () => {
    const raptor = (set: string[]) => ({ entrypoint: 'aizk_task_raptor', priority: 10, dedupeKey: `raptor:${set.join(',')}`, payload: { scopes: set } })
    const idA = await as([A]).transaction(app.scoped, (c) => enqueue(c, raptor([A])))
    assert.ok(idA)
    assert.ok(await as([B]).transaction(app.scoped, (c) => enqueue(c, raptor([B]))))
    await assert.rejects(
      as([B]).transaction(app.scoped, (c) => c.query('select id::text from pgqueuer')),
      /permission denied/,
    )
    // The worker's pick function, called as the app role, reaches no row either.
    await assert.rejects(
      as([B]).transaction(app.scoped, (c) => c.query("select * from aizk_pick(100, gen_random_uuid(), array['aizk_task_raptor'], array[0], 0)")),
      /permission denied/,
    )
    for (const sql of ["update pgqueuer set status = 'queued'", 'delete from pgqueuer']) {
      await assert.rejects(
        as([B]).transaction(app.scoped, (c) => c.query(sql)),
        /permission denied/,
      )
    }
    // The owner (worker, operator commands) still sees every row.
    const all = await db.pool.query("select count(*)::int as n from pgqueuer where entrypoint = 'aizk_task_raptor'")
    assert.equal(all.rows[0].n, 2)
  })
})
