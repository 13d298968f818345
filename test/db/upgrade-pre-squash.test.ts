/**
 * A database installed by the migrations 0001-0022 that existed before the baseline (kept in
 * test/fixtures/migrations-0.1-pre-squash/, applied here the way the migrator of that time did)
 * is at the baseline: install does not run it again, re-applies every definition, loses no row,
 * and leaves the schema a fresh install makes.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import type pg from 'pg'
import { loadDefinitions } from '../../src/db/definitions.js'
import { migrate, schemaState } from '../../src/db/migrate.js'
import { repoRoot } from '../support/cli.js'
import { freshDatabases } from '../support/db.js'
import { schemaSnapshot } from '../support/schema-snapshot.js'

const appRole = 'aizk_app'
const OLD_DIR = path.join(repoRoot, 'test', 'fixtures', 'migrations-0.1-pre-squash')
const freshDatabase = freshDatabases({ empty: true })

async function installPreSquash(client: pg.ClientBase): Promise<void> {
  await client.query(`create table aizk_schema_version (version int primary key, name text not null, checksum text not null,
    applied_at timestamptz not null default now())`)
  for (const file of readdirSync(OLD_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    const raw = readFileSync(path.join(OLD_DIR, file), 'utf8')
    await client.query('begin')
    await client.query(raw.replaceAll('{{app_role_literal}}', appRole).replaceAll('{{app_role}}', `"${appRole}"`))
    await client.query('insert into aizk_schema_version (version, name, checksum) values ($1, $2, $3)', [
      Number(file.slice(0, 4)),
      file.replace(/\.sql$/, ''),
      createHash('sha256').update(raw).digest('hex').slice(0, 16),
    ])
    await client.query('commit')
  }
}

const A = '00000000-0000-4000-a000-00000000000a'
const B = '00000000-0000-4000-a000-00000000000b'

/** Jobs in every state, their log, a worker, a pause, memory rows and content, written as the owner. */
async function fill(client: pg.ClientBase): Promise<void> {
  await client.query(`insert into aizk_worker (queue_manager_id, host, pid, version, entrypoints, limits)
    values ('11111111-1111-4111-8111-111111111111', 'h', 1, '0.1.0', '{work}', '{"work": 2}')`)
  await client.query(`insert into pgqueuer (priority, status, entrypoint, dedupe_key, payload, execute_after, queue_manager_id)
    values (5, 'queued', 'work', 'k1', '\\x01', now(), null),
           (1, 'queued', 'work', null, null, now() + interval '1 day', null),
           (3, 'picked', 'work', 'k2', '\\x02', now(), '11111111-1111-4111-8111-111111111111'),
           (0, 'failed', 'other', 'k3', null, now(), null)`)
  await client.query(`insert into pgqueuer_log (job_id, status, priority, entrypoint) values (90, 'successful', 1, 'work'), (91, 'exception', 1, 'work')`)
  await client.query(`insert into aizk_entrypoint_pause (entrypoint, reason) values ('other', 'upgrade test')`)
  await client.query(`insert into document (id, scopes, title, body) values ('22222222-2222-4222-8222-222222222222', $1, 't', 'b')`, [[A, B]])
  await client.query(
    `insert into chunk (id, scopes, document_id, source, ordinal, text) values
    ('33333333-3333-4333-8333-333333333333', $1, '22222222-2222-4222-8222-222222222222', 'document', 0, 'Ada wrote notes.')`,
    [[A, B]],
  )
  await client.query(
    `insert into entity (id, scopes, name, normalized_name, kind) values ('44444444-4444-4444-8444-444444444444', $1, 'Ada', 'ada', 'person')`,
    [[A]],
  )
  await client.query(
    `insert into claim (scopes, subject_id, predicate, object_text, object_key, source_chunk_id)
    values ($1, '44444444-4444-4444-8444-444444444444', 'wrote', 'notes', 'text:notes', null)`,
    [[A]],
  )
  await client.query(`insert into aizk_content (content_id, bytes, byte_size) values (encode(sha256('\\x0102'::bytea), 'hex'), '\\x0102', 2)`)
  await client.query(`insert into artifact (scopes, content_id, storage, byte_size) values ($1, encode(sha256('\\x0102'::bytea), 'hex'), 'postgres', 2)`, [[A]])
}

/** Every table's rows, as one digest per table. */
/**
 * Each table's row count and a hash of its rows. With `only`, just those tables and columns: the
 * rows kept from before an upgrade, whatever the migrations written after the baseline add.
 */
async function contents(client: pg.ClientBase, only?: Record<string, string[]>): Promise<{ rows: Record<string, string>; columns: Record<string, string[]> }> {
  const { rows } = await client.query<{ relname: string; columns: string[] }>(
    `select c.relname, array_agg(quote_ident(a.attname) order by a.attnum) as columns
       from pg_class c join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and c.relname not like 'aizk_schema_%'
      group by c.relname order by 1`,
  )
  const out: Record<string, string> = {}
  const columns: Record<string, string[]> = {}
  for (const { relname, columns: all } of rows) {
    if (only && !only[relname]) continue
    columns[relname] = only ? only[relname] : all
    const r = await client.query(
      `select count(*)::int as n, md5(coalesce(string_agg(v, '|' order by v), '')) as h from (select row(${columns[relname].join(', ')})::text as v from ${relname}) t`,
    )
    out[relname] = `${r.rows[0].n} ${r.rows[0].h}`
  }
  return { rows: out, columns }
}

describe('upgrading a database installed before the baseline', () => {
  it('recognises it at the baseline, keeps every row, and ends with the schema of a fresh install', async () => {
    const old = await freshDatabase()
    const fresh = await freshDatabase()
    const client = await old.pool.connect()
    const freshClient = await fresh.pool.connect()
    try {
      await installPreSquash(client)
      await fill(client)
      const before = await contents(client)
      assert.ok(Number(before.rows.pgqueuer.split(' ')[0]) === 4 && Number(before.rows.aizk_queue_count_delta.split(' ')[0]) > 0)

      const state = await schemaState(client, { appRole })
      assert.equal(state.current, 22)
      assert.deepEqual(
        state.pending.filter((m) => m.version <= 22),
        [],
        'the baseline is not pending (only migrations written after it are)',
      )
      assert.equal(state.pendingDefinitions.length, loadDefinitions(appRole).length, 'no definition is recorded yet')

      const result = await migrate(client, { appRole })
      assert.deepEqual(
        result.applied.filter((m) => m.version <= 22),
        [],
        'the baseline is not run again',
      )
      assert.deepEqual(
        result.applied.map((m) => m.version),
        state.pending.map((m) => m.version),
        'the migrations written after it are',
      )
      assert.equal(result.definitions.length, loadDefinitions(appRole).length)
      // Every row kept; a table a later migration dropped was empty (aizk_content_held, 0028).
      // aizk_app_entrypoint is rewritten on purpose: 0026 ties usage events' keys to the write set.
      const kept = (await contents(client, before.columns)).rows
      const rewritten = new Set(['aizk_app_entrypoint'])
      for (const [table, digest] of Object.entries(before.rows)) {
        if (rewritten.has(table)) assert.equal(kept[table].split(' ')[0], digest.split(' ')[0], `${table} keeps its row count`)
        else if (table in kept) assert.equal(kept[table], digest, table)
        else assert.match(digest, /^0 /, `${table} was dropped with rows in it`)
      }

      await migrate(freshClient, { appRole })
      assert.equal(await schemaSnapshot(client), await schemaSnapshot(freshClient))
      const again = await migrate(client, { appRole })
      assert.deepEqual([again.applied, again.definitions], [[], []])

      // The queue still works on the kept rows: the ready job is picked, the one due tomorrow is not.
      const picked = await client.query("select id, entrypoint from aizk_pick(10, '11111111-1111-4111-8111-111111111111', '{work}', '{2}', 30)")
      assert.deepEqual(
        picked.rows.map((r) => r.entrypoint),
        ['work'],
      )
      const counts = await client.query(
        "select status::text, sum(n)::int as n from (select entrypoint, status, n from aizk_queue_count union all select entrypoint, status, n from aizk_queue_count_delta) c where entrypoint = 'work' group by 1 order by 1",
      )
      assert.deepEqual(counts.rows, [
        { status: 'picked', n: 2 },
        { status: 'queued', n: 1 },
      ])
    } finally {
      client.release()
      freshClient.release()
    }
  })

  it('refuses a database from before the baseline that stopped short of it', async () => {
    const db = await freshDatabase()
    await db.pool.query('create table aizk_schema_version (version int primary key, name text not null, checksum text not null)')
    await db.pool.query("insert into aizk_schema_version values (20, '0020_tenant_boundary', 'x')")
    const client = await db.pool.connect()
    try {
      await assert.rejects(migrate(client, { appRole }), (err: Error & { exitCode?: number }) => {
        assert.match(err.message, /at version 20, before the 0\.1\.0 baseline \(version 22\)/)
        assert.equal(err.exitCode, 4)
        return true
      })
    } finally {
      client.release()
    }
  })
})
