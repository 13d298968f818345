/**
 * The scoped tables (src/db/scoped-tables.ts, docs/schema.md#generated-definitions): the committed
 * definition files are what `npm run definitions` writes from the list, and an installed database
 * bounds every scoped table by its policies and every foreign key between scoped tables by its
 * reference check, so a new table or foreign key without them fails here.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import type pg from 'pg'
import { DEFINITIONS_DIR } from '../../src/db/definitions.js'
import { SCOPED_TABLES } from '../../src/db/scoped-tables.js'
import { isGeneratedName, scopedDefinitions } from '../../src/db/sql/scoped-definitions.js'
import { freshDatabases } from '../support/db.js'

const appRole = 'aizk_app'
const installedDb = freshDatabases()

describe('definitions generated from the scoped tables', () => {
  it('are committed as `npm run definitions` writes them, and no generated name is left over', () => {
    const generated = scopedDefinitions(SCOPED_TABLES)
    for (const [name, text] of generated) {
      assert.equal(readFileSync(path.join(DEFINITIONS_DIR, `${name}.sql`), 'utf8'), text, `${name}.sql differs from the list: run npm run definitions`)
    }
    const onDisk = ['functions', 'triggers', 'policies'].flatMap((k) =>
      readdirSync(path.join(DEFINITIONS_DIR, k)).map((f) => `${k}/${f.replace(/\.sql$/, '')}`),
    )
    assert.deepEqual(
      onDisk.filter((n) => isGeneratedName(n) && !generated.has(n)),
      [],
      'a generated file whose table or reference left the list',
    )
  })
})

const PRIVILEGE_POLICY: Record<string, string> = { SELECT: 'rls_select', INSERT: 'rls_insert', UPDATE: 'rls_update', DELETE: 'rls_delete' }

/** What a database lacks for its scoped tables (those with a `scopes` column): one line each. */
async function missingScopeChecks(db: pg.Pool | pg.ClientBase): Promise<string[]> {
  const missing: string[] = []
  const tables = await db.query<{ table: string; rls: boolean; privileges: string[] | null; policies: string[] | null }>(
    `select c.relname as table, c.relrowsecurity as rls,
            (select array_agg(g.privilege_type::text) from information_schema.role_table_grants g
              where g.grantee = $1 and g.table_schema = 'public' and g.table_name = c.relname) as privileges,
            (select array_agg(p.policyname::text) from pg_policies p
              where p.schemaname = 'public' and p.tablename = c.relname and $1 = any(p.roles)) as policies
       from pg_class c join pg_attribute a on a.attrelid = c.oid and a.attname = 'scopes' and not a.attisdropped
      where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' order by 1`,
    [appRole],
  )
  for (const t of tables.rows) {
    if (!t.rls) missing.push(`${t.table}: row security is off`)
    for (const privilege of t.privileges ?? []) {
      const policy = PRIVILEGE_POLICY[privilege]
      if (policy && !(t.policies ?? []).includes(policy)) missing.push(`${t.table}: the app role may ${privilege} without policy ${policy}`)
    }
  }
  const scoped = new Set(tables.rows.map((t) => t.table))
  const keys = await db.query<{ table: string; column: string; target: string }>(
    `select c.conrelid::regclass::text as table, a.attname as column, c.confrelid::regclass::text as target
       from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      where c.contype = 'f' and c.connamespace = 'public'::regnamespace and cardinality(c.conkey) = 1 order by 1, 2`,
  )
  const triggers = await db.query<{ table: string; name: string; function: string; body: string; columns: string[] | null }>(
    `select t.tgrelid::regclass::text as table, t.tgname as name, p.proname as function, p.prosrc as body,
            (select array_agg(a.attname::text) from pg_attribute a where a.attrelid = t.tgrelid and a.attnum = any(t.tgattr)) as columns
       from pg_trigger t join pg_proc p on p.oid = t.tgfoid where not t.tgisinternal`,
  )
  for (const k of keys.rows.filter((r) => scoped.has(r.table) && scoped.has(r.target))) {
    const on = (event: string) => triggers.rows.find((t) => t.table === k.table && t.name === `aizk_${k.table}_refs_${event}`)
    const check = new RegExp(
      `NEW\\.${k.column} IS NOT NULL AND NOT EXISTS \\(SELECT 1 FROM public\\.${k.target} x WHERE x\\.id = NEW\\.${k.column} AND x\\.scopes <@ NEW\\.scopes AND x\\.scopes <@ readable\\)`,
    )
    const insert = on('insert')
    const update = on('update')
    if (!insert || !check.test(insert.body)) missing.push(`${k.table}.${k.column} → ${k.target}: no insert check`)
    if (!update || !check.test(update.body) || !(update.columns ?? []).includes(k.column)) missing.push(`${k.table}.${k.column} → ${k.target}: no update check`)
  }
  return missing
}

describe('scoped tables in an installed database', () => {
  it('every scoped table has row security and a policy for each privilege of the app role; every foreign key between them its check', async () => {
    const db = await installedDb()
    assert.deepEqual(await missingScopeChecks(db.pool), [])
    const { rows } = await db.pool.query<{ table: string }>(
      `select c.relname as table from pg_class c join pg_attribute a on a.attrelid = c.oid and a.attname = 'scopes'
        where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' order by 1`,
    )
    assert.deepEqual(
      rows.map((r) => r.table),
      SCOPED_TABLES.map((t) => t.table).sort(),
      'src/db/scoped-tables.ts lists every table with a scopes column',
    )
  })

  it('finds a new foreign key without its check, and a scoped table without its policy', async () => {
    const db = await installedDb()
    await db.pool.query('alter table document add column probe_chunk_id uuid references chunk (id)')
    await db.pool.query('create table probe_scoped (id uuid primary key, scopes uuid[] not null)')
    await db.pool.query(`grant select on probe_scoped to ${appRole}`)
    assert.deepEqual(await missingScopeChecks(db.pool), [
      'probe_scoped: row security is off',
      'probe_scoped: the app role may SELECT without policy rls_select',
      'document.probe_chunk_id → chunk: no insert check',
      'document.probe_chunk_id → chunk: no update check',
    ])
  })
})
