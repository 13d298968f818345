/**
 * What one tenant's scoped transaction leaves on a pooled app-login connection must not reach
 * the next tenant's transaction on it: temporary tables and views that shadow real ones, a
 * session search_path, a prepared statement named like one node-pg prepared, a session advisory
 * lock. The login pool has ONE connection, so every transaction here shares it; each test shows
 * that it did (same backend pid). Also what the app login cannot do at all: COPY from files,
 * programs or into row-secured tables, objects of its own in the public schema.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type pg from 'pg'
import { ingestOriginal } from '../../src/ingest/ingest.js'
import { User } from '../../src/scope/user.js'
import { parseSettings } from '../../src/settings.js'
import { A, B, fileAppLogin, identity } from '../support/app-login.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase()
const app = await fileAppLogin(db, 'aizk_app', { max: 1 })
const settings = { ...parseSettings({}), ...identity }
const as = (scopes: string[]) => User.system(scopes, identity)
const pid = async (c: pg.PoolClient) => (await c.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid

describe('a pooled connection carries nothing into the next tenant', () => {
  it("temporary tables and views named like artifact, chunk and document do not catch B's ingest, and A reads none of it", async () => {
    const attackerPid = await as([A]).transaction(app.scoped, async (c) => {
      // A session search_path of its own, the temporary schema first, kept past the transaction.
      await c.query(`select set_config('search_path', 'pg_temp, public', false)`)
      await c.query('create temp table artifact (like public.artifact including all)')
      await c.query('create temp table chunk (like public.chunk including all)')
      await c.query('create temp table stash (like public.document including all)')
      await c.query('create temp view document as select * from stash')
      return pid(c)
    })
    const secret = Buffer.from('# B only\n\nthe quarterly numbers of tenant B.\n')
    const ingested = await ingestOriginal(app.scoped, settings, { scopes: [B], bytes: secret, filename: 'b.md', mediaType: 'text/markdown' })
    const victim = await as([B]).transaction(app.scoped, async (c) => {
      await c.query(`insert into document (scopes, title) values ($1::uuid[], 'B private')`, [[B]])
      const path = (await c.query<{ p: string }>(`select current_setting('search_path') as p`)).rows[0].p
      return { pid: await pid(c), path }
    })
    assert.equal(victim.pid, attackerPid, 'the same pooled connection')
    const landed = await db.pool.query('select scopes::text[] as scopes from public.artifact where id = $1', [ingested.artifactId])
    assert.deepEqual(landed.rows, [{ scopes: [B] }])
    const doc = await db.pool.query(`select count(*)::int as n from public.document where title = 'B private'`)
    assert.equal(doc.rows[0].n, 1)
    assert.equal(victim.path, 'pg_catalog, public, pg_temp')
    const seen = await as([A]).transaction(app.scoped, async (c) => ({
      temps: (await c.query(`select count(*)::int as n from pg_class where relnamespace = pg_my_temp_schema()`)).rows[0].n,
      bytes: (await c.query('select count(*)::int as n from aizk_content where content_id = $1', [ingested.contentId])).rows[0].n,
    }))
    assert.deepEqual(seen, { temps: 0, bytes: 0 })
  })

  it('a prepared statement named like the one node-pg prepared for storing bytes does not run for B', async () => {
    const first = Buffer.from('B stores this first, which prepares aizk_content_put on the connection')
    await ingestOriginal(app.scoped, settings, { scopes: [B], bytes: first, filename: 'b1.txt', mediaType: 'text/plain' })
    const attackerPid = await as([A]).transaction(app.scoped, async (c) => {
      await c.query('deallocate all')
      await c.query(`prepare aizk_content_put(bytea) as select aizk_store_content('planted by A'::bytea) as id`)
      return pid(c)
    })
    const bytes = Buffer.from('what B means to store')
    const result = await ingestOriginal(app.scoped, settings, { scopes: [B], bytes, filename: 'b2.txt', mediaType: 'text/plain' })
    const stored = await as([B]).transaction(app.scoped, async (c) => ({
      pid: await pid(c),
      bytes: (await c.query('select bytes from aizk_content where content_id = $1', [result.contentId])).rows[0]?.bytes as Buffer | undefined,
    }))
    assert.equal(stored.pid, attackerPid, 'the same pooled connection')
    assert.ok(stored.bytes?.equals(bytes))
  })

  it('a session advisory lock (the pick lock of an entrypoint) is released when its transaction ends', async () => {
    const key = "1634300523, hashtext('aizk_build_graph_chunk')"
    await as([A]).transaction(app.scoped, (c) => c.query(`select pg_advisory_lock(${key})`))
    const owner = await db.pool.connect()
    try {
      const { rows } = await owner.query(`select pg_try_advisory_lock(${key}) as ok`)
      assert.equal(rows[0].ok, true)
      await owner.query(`select pg_advisory_unlock(${key})`)
    } finally {
      owner.release()
    }
  })

  it('a transaction that fails leaves nothing behind either', async () => {
    await assert.rejects(
      as([A]).transaction(app.scoped, async (c) => {
        await c.query('create temp table artifact (like public.artifact including all)')
        await c.query(`select set_config('search_path', 'pg_temp, public', false)`)
        throw new Error('the tenant gives up')
      }),
      /gives up/,
    )
    const left = await as([B]).transaction(app.scoped, async (c) => ({
      temps: (await c.query(`select count(*)::int as n from pg_class where relnamespace = pg_my_temp_schema()`)).rows[0].n,
      path: (await c.query<{ p: string }>(`select current_setting('search_path') as p`)).rows[0].p,
    }))
    assert.deepEqual(left, { temps: 0, path: 'pg_catalog, public, pg_temp' })
  })

  it('temporary functions and operators shadow nothing: PostgreSQL never looks for them in pg_temp unqualified', async () => {
    await as([A]).transaction(app.scoped, async (c) => {
      await c.query(`create function pg_temp.aizk_store_content(bytea) returns text language sql as $$ select 'planted' $$`)
      await c.query(`create function pg_temp.lie(uuid[], uuid[]) returns boolean language sql as $$ select true $$`)
      await c.query(`create operator pg_temp.<@ (leftarg = uuid[], rightarg = uuid[], function = pg_temp.lie)`)
      const id = (await c.query(`select aizk_store_content('x'::bytea) as id`)).rows[0].id
      assert.notEqual(id, 'planted')
      await c.query(`insert into document (scopes, title) values ($1::uuid[], 'only A')`, [[A]])
      const wide = (await c.query(`select count(*)::int as n from document where scopes <@ $1::uuid[]`, [[A, B]])).rows[0].n
      assert.equal(wide, 1)
    })
  })
})

describe('what the app login cannot do at all', () => {
  it('COPY: not into a row-secured table, not from or to a server file or program', async () => {
    const attempts = [
      [`copy document from stdin`, /row-level security|COPY FROM not supported/],
      [`copy document to '/tmp/aizk-escape.txt'`, /permission denied|must be superuser|pg_write_server_files/],
      [`copy (select 1) to program 'id'`, /permission denied|must be superuser|pg_execute_server_program/],
      [`copy document from '/etc/passwd'`, /permission denied|must be superuser|pg_read_server_files/],
    ] as const
    for (const [sql, refused] of attempts) {
      await assert.rejects(
        as([A]).transaction(app.scoped, (c) => c.query(sql)),
        refused,
        sql,
      )
    }
  })

  it('no table, view or function of its own in the public schema, where it would shadow nothing but could be called', async () => {
    for (const sql of [
      'create table public.artifact_copy (id uuid)',
      'create view public.everything as select 1',
      `create function public.aizk_read_scopes_too() returns uuid[] language sql as $$ select '{}'::uuid[] $$`,
    ]) {
      await assert.rejects(
        as([A]).transaction(app.scoped, (c) => c.query(sql)),
        /permission denied/,
        sql,
      )
    }
  })
})
