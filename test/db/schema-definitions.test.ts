/**
 * The schema's layout (docs/schema.md): one definition file per function, trigger and policy,
 * applied in dependency order and again when its checksum changes; forward migrations hold no
 * definitions, and an applied migration that changed stops install with exit 4.
 */
import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { DEFINITIONS_DIR, type Definition, inDependencyOrder, loadDefinitions } from '../../src/db/definitions.js'
import { migrate, schemaState } from '../../src/db/migrate.js'
import { BASELINE_VERSION, loadMigrations, MIGRATIONS_DIR } from '../../src/db/migrations.js'
import { readDirectives } from '../../src/db/schema-files.js'
import { runCli } from '../support/cli.js'
import { freshDatabases } from '../support/db.js'

const appRole = 'aizk_app'
const migratedDb = freshDatabases()
const def = (name: string, requires: string[] = []): Definition => ({ name, sql: '', checksum: '', rawChecksum: '', requires })

describe('definition files', () => {
  it('each file defines the one object its name says', () => {
    for (const d of loadDefinitions(appRole)) {
      const [kind, name] = d.name.split('/')
      const pattern = {
        functions: new RegExp(`FUNCTION ${name}\\(`),
        triggers: new RegExp(`CREATE (CONSTRAINT )?TRIGGER ${name}\\b`),
        policies: new RegExp(`CREATE POLICY ${name.split('.')[1]} ON ${name.split('.')[0]}\\b`),
      }[kind]
      assert.ok(pattern?.test(d.sql), `${d.name} defines ${name}`)
      const created = d.sql.match(/CREATE (OR REPLACE )?(CONSTRAINT )?(FUNCTION|TRIGGER|POLICY) /g) ?? []
      assert.equal(created.length, 1, `${d.name} creates one object`)
    }
  })

  it('comes after every definition it requires, and a trigger after its function', () => {
    const defs = loadDefinitions(appRole)
    const at = new Map(defs.map((d, i) => [d.name, i]))
    for (const d of defs) for (const r of d.requires) assert.ok(at.get(r)! < at.get(d.name)!, `${r} before ${d.name}`)
    for (const d of defs.filter((x) => x.name.startsWith('triggers/'))) {
      const fn = /EXECUTE FUNCTION (\w+)\(/.exec(d.sql)?.[1]
      assert.ok(d.requires.includes(`functions/${fn}`), `${d.name} requires functions/${fn}`)
    }
    assert.deepEqual(
      inDependencyOrder([def('policies/a', ['functions/b']), def('functions/b')]).map((d) => d.name),
      ['functions/b', 'policies/a'],
    )
    assert.throws(() => inDependencyOrder([def('functions/a', ['functions/b']), def('functions/b', ['functions/a'])]), /cycle through functions\/a/)
    assert.throws(() => inDependencyOrder([def('functions/a', ['functions/nope'])]), /functions\/a requires functions\/nope, which is not a file/)
  })

  it('reads directives only from the leading comments, and names an unknown one', () => {
    assert.deepEqual(
      readDirectives(
        'x.sql',
        '-- aizk:requires functions/a\n-- aizk:requires-check dedupe-keys\n-- aizk:drops functions/c\nSELECT 1;\n-- aizk:requires functions/b\n',
      ),
      {
        requires: ['functions/a'],
        checks: ['dedupe-keys'],
        drops: ['functions/c'],
      },
    )
    assert.throws(() => readDirectives('x.sql', '-- aizk:require functions/a\n'), /x\.sql: unknown directive -- aizk:require/)
  })

  it('forward migrations after the baseline define no function, trigger or policy', () => {
    for (const m of loadMigrations({ appRole }).filter((x) => x.version > BASELINE_VERSION)) {
      assert.doesNotMatch(m.sql, /CREATE (OR REPLACE )?(CONSTRAINT )?(FUNCTION|TRIGGER|POLICY)/i, `${m.name}: put it under src/db/definitions/`)
    }
    assert.deepEqual(readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql'))[0], `00${BASELINE_VERSION}_baseline.sql`)
  })
})

describe('definitions in the database', () => {
  it('every function, trigger and policy a fresh install makes has its file', async () => {
    const db = await migratedDb()
    const { rows } = await db.pool.query<{ name: string }>(`
      select 'functions/' || p.proname as name from pg_proc p
       where p.pronamespace = 'public'::regnamespace
         and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
      union all select 'triggers/' || tgname from pg_trigger where not tgisinternal
      union all select 'policies/' || tablename || '.' || policyname from pg_policies where schemaname = 'public'
      order by 1`)
    const files = ['functions', 'triggers', 'policies'].flatMap((k) => readdirSync(path.join(DEFINITIONS_DIR, k)).map((f) => `${k}/${f.replace(/\.sql$/, '')}`))
    assert.deepEqual(
      rows.map((r) => r.name),
      files.sort(),
    )
  })

  it('re-applies a definition whose checksum changed, and only that one', async () => {
    const db = await migratedDb()
    await db.pool.query('create or replace function aizk_touch_updated() returns trigger language plpgsql as $$ begin return new; end $$')
    await db.pool.query("update aizk_schema_definition set checksum = 'older' where name = 'functions/aizk_touch_updated'")
    const client = await db.pool.connect()
    try {
      assert.deepEqual(
        (await schemaState(client, { appRole })).pendingDefinitions.map((d) => d.name),
        ['functions/aizk_touch_updated'],
      )
      const result = await migrate(client, { appRole })
      assert.deepEqual([result.applied, result.definitions], [[], ['functions/aizk_touch_updated']])
    } finally {
      client.release()
    }
    const body = (await db.pool.query("select prosrc from pg_proc where proname = 'aizk_touch_updated'")).rows[0].prosrc
    assert.match(body, /NEW\.updated := now\(\)/)
    const recorded = (await db.pool.query("select checksum from aizk_schema_definition where name = 'functions/aizk_touch_updated'")).rows[0].checksum
    assert.equal(recorded, loadDefinitions(appRole).find((d) => d.name === 'functions/aizk_touch_updated')!.checksum)
  })

  it("a recorded definition a migration of this build drops is not a newer aizk's, and install forgets it", async () => {
    const db = await migratedDb()
    await db.pool.query("insert into aizk_schema_definition (name, checksum) values ('functions/aizk_scopes_proven', 'older')")
    await db.pool.query("delete from aizk_schema_definition where name = 'functions/aizk_touch_updated'")
    const client = await db.pool.connect()
    try {
      assert.deepEqual((await schemaState(client, { appRole })).unknownDefinitions, [])
      assert.deepEqual((await migrate(client, { appRole })).definitions, ['functions/aizk_touch_updated'])
    } finally {
      client.release()
    }
    const { rows } = await db.pool.query("select 1 from aizk_schema_definition where name = 'functions/aizk_scopes_proven'")
    assert.equal(rows.length, 0)
  })

  it('stops install with exit 4 when an applied migration no longer matches its file', async () => {
    const db = await migratedDb()
    await db.pool.query(`update aizk_schema_version set checksum = 'edited' where version = ${BASELINE_VERSION}`)
    const res = await runCli(['install'], { env: { AIZK_DATABASE_URL: db.url } })
    assert.equal(res.code, 4, res.stderr)
    assert.match(res.stderr, /migration 0022_baseline was applied with checksum edited, but its file now has [0-9a-f]{16}/)
    assert.match(res.stderr, /put the change in a new migration/)
  })
})
