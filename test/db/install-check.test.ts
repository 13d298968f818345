/**
 * `aizk install --check` (docs/deployment.md#upgrading): the real CLI against databases that are
 * not installed, current, behind and ahead of this build; it never writes. A database a newer aizk
 * installed is run on by this build's commands, and this build's install refuses to undo it.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { loadMigrations, migrate } from '../../src/db/migrate.js'
import { runCli } from '../support/cli.js'
import { freshDatabases, type TestDatabase } from '../support/db.js'

const opts = { appRole: 'aizk_app' }
const freshDatabase = freshDatabases({ empty: true })

async function installedDb(): Promise<TestDatabase> {
  const db = await freshDatabase()
  const client = await db.pool.connect()
  await migrate(client, opts).finally(() => client.release())
  return db
}

const check = (db: TestDatabase) => runCli(['install', '--check', '--json'], { env: { AIZK_DATABASE_URL: db.url } })
const records = async (db: TestDatabase) =>
  (
    await db.pool.query(
      'select (select json_agg(v order by version) from aizk_schema_version v) as versions, (select json_agg(d order by name) from aizk_schema_definition d) as definitions',
    )
  ).rows[0]

describe('aizk install --check', () => {
  it('exits 4 on a database without the schema, and creates nothing', async () => {
    const db = await freshDatabase()
    const r = await check(db)
    assert.equal(r.code, 4, r.stderr)
    const { error } = JSON.parse(r.stdout)
    assert.equal(error.code, 'schema_mismatch')
    assert.equal(error.details.state, 'not-installed')
    assert.match(error.hint, /aizk install/)
    const { rows } = await db.pool.query("select to_regclass('aizk_schema_version') as t, to_regclass('pgqueuer') as q")
    assert.deepEqual(rows[0], { t: null, q: null })
  })

  it('exits 0 on a database this version installed, in text and JSON', async () => {
    const db = await installedDb()
    const latest = loadMigrations(opts).at(-1)!
    const json = await check(db)
    assert.equal(json.code, 0, json.stderr)
    const doc = JSON.parse(json.stdout)
    assert.equal(doc.matches, true)
    assert.equal(doc.state, 'current')
    assert.equal(doc.version, latest.version)
    assert.deepEqual([doc.pendingMigrations, doc.changedDefinitions, doc.unknownMigrations, doc.unknownDefinitions], [[], [], [], []])
    const text = await runCli(['install', '--check'], { env: { AIZK_DATABASE_URL: db.url } })
    assert.equal(text.code, 0, text.stderr)
    assert.match(text.stdout, new RegExp(`schema matches this aizk at version ${latest.version}`))
  })

  it('exits 4 naming the migration and the definition a database lacks, and changes neither', async () => {
    const db = await installedDb()
    const latest = loadMigrations(opts).at(-1)!
    await db.pool.query('delete from aizk_schema_version where version = $1', [latest.version])
    await db.pool.query("update aizk_schema_definition set checksum = 'older' where name = 'functions/aizk_pick'")
    const before = await records(db)
    const r = await check(db)
    assert.equal(r.code, 4, r.stderr)
    const { error } = JSON.parse(r.stdout)
    assert.equal(error.details.state, 'behind')
    assert.deepEqual(error.details.pendingMigrations, [latest.name])
    assert.deepEqual(error.details.changedDefinitions, ['functions/aizk_pick'])
    assert.match(error.message, new RegExp(`migration ${latest.name} is not applied`))
    assert.match(error.message, /definition functions\/aizk_pick differs/)
    assert.deepEqual(await records(db), before)
    const text = await runCli(['install', '--check'], { env: { AIZK_DATABASE_URL: db.url } })
    assert.equal(text.code, 4)
    assert.match(text.stderr, /migration .* is not applied/)
    assert.match(text.stderr, /hint: run `aizk install` with this version/)
  })

  it("a newer aizk's schema: --check says ahead (exit 4), commands run on it, this install refuses to undo it", async () => {
    const db = await installedDb()
    await db.pool.query("insert into aizk_schema_version (version, name, checksum) values (9001, '9001_from_a_newer_release', 'newer')")
    await db.pool.query("update aizk_schema_definition set checksum = 'newer' where name = 'functions/aizk_pick'")
    await db.pool.query("insert into aizk_schema_definition (name, checksum) values ('functions/aizk_from_a_newer_release', 'newer')")
    const before = await records(db)
    const r = await check(db)
    assert.equal(r.code, 4, r.stderr)
    const { error } = JSON.parse(r.stdout)
    assert.equal(error.details.state, 'ahead')
    assert.deepEqual(error.details.unknownMigrations, ['9001_from_a_newer_release'])
    assert.deepEqual(error.details.unknownDefinitions, ['functions/aizk_from_a_newer_release'])
    assert.match(error.hint, /newer aizk/)
    const status = await runCli(['status', '--json'], { env: { AIZK_DATABASE_URL: db.url } })
    assert.equal(status.code, 0, status.stderr)
    const install = await runCli(['install'], { env: { AIZK_DATABASE_URL: db.url } })
    assert.equal(install.code, 4)
    assert.match(
      install.stderr,
      /a newer aizk installed this database's schema \(migration 9001_from_a_newer_release, definition functions\/aizk_from_a_newer_release\)/,
    )
    assert.deepEqual(await records(db), before)
  })

  it('refuses --check with --dry-run (exit 2)', async () => {
    const r = await runCli(['install', '--check', '--dry-run'], { env: { AIZK_DATABASE_URL: 'postgres://127.0.0.1:1/none' } })
    assert.equal(r.code, 2, r.stderr)
    assert.match(r.stderr, /--dry-run/)
  })
})
