/**
 * Checksums over what runs (docs/schema.md#checksums): a comment or whitespace does not change a
 * definition's or a migration's checksum, and a database that recorded the raw checksums of an
 * install before 0.2.0 matches this build without a re-install.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { loadDefinitions } from '../../src/db/definitions.js'
import { migrate, schemaState } from '../../src/db/migrate.js'
import { loadMigrations } from '../../src/db/migrations.js'
import { compareSchema } from '../../src/db/schema-check.js'
import { checksum, rawChecksum, whatRuns } from '../../src/db/schema-files.js'
import { freshDatabases } from '../support/db.js'

const appRole = 'aizk_app'
const installedDb = freshDatabases()

describe('what a checksum covers', () => {
  it('drops comments and whitespace, keeps quoted text as written', () => {
    const sql = '-- why\nCREATE POLICY p ON t   FOR SELECT\n    USING (a = \'x -- y\' /* note */ AND "B  C" = 1) ;\n'
    assert.equal(whatRuns(sql), `CREATE POLICY p ON t FOR SELECT USING(a = 'x -- y' AND "B  C" = 1);`)
    assert.equal(checksum(sql), checksum('CREATE POLICY p ON t FOR SELECT USING (a = \'x -- y\' AND "B  C" = 1);'))
    assert.equal(checksum("SELECT 'it''s -- kept'"), checksum("SELECT 'it''s -- kept' -- a comment"))
    assert.notEqual(checksum("SELECT 'a  b'"), checksum("SELECT 'a b'"), 'whitespace inside a string runs')
    assert.notEqual(checksum('SELECT a'), checksum('SELECT b'))
    assert.notEqual(checksum(sql), rawChecksum(sql))
  })

  it('a migration accepts its checksum over what runs, its raw one, and the one its release recorded', () => {
    const baseline = loadMigrations({ appRole }).find((m) => m.name === '0022_baseline')!
    assert.equal(baseline.acceptedChecksums[0], baseline.checksum)
    // 0.1.0 recorded the baseline's bytes before a comment of it was corrected.
    assert.ok(baseline.acceptedChecksums.includes('651cfb8881fb7eed'))
  })
})

describe('a database that recorded raw checksums (an install before 0.2.0)', () => {
  it('matches this build; the next install that has work records the checksums over what runs', async () => {
    const db = await installedDb()
    for (const d of loadDefinitions(appRole)) {
      await db.pool.query('update aizk_schema_definition set checksum = $2 where name = $1', [d.name, d.rawChecksum])
    }
    for (const m of loadMigrations({ appRole })) {
      const released = m.name === '0022_baseline' ? '651cfb8881fb7eed' : m.acceptedChecksums[1]
      await db.pool.query('update aizk_schema_version set checksum = $2 where version = $1', [m.version, released])
    }
    const client = await db.pool.connect()
    try {
      const state = await schemaState(client, { appRole })
      assert.deepEqual([state.pending, state.pendingDefinitions], [[], []])
      assert.equal((await compareSchema(client, { appRole })).state, 'current')
      await db.pool.query("update aizk_schema_definition set checksum = 'older' where name = 'functions/aizk_touch_updated'")
      const result = await migrate(client, { appRole })
      assert.deepEqual(result.definitions, ['functions/aizk_touch_updated'])
    } finally {
      client.release()
    }
    const recorded = await db.pool.query<{ name: string; checksum: string }>('select name, checksum from aizk_schema_definition order by name')
    const expected = new Map(loadDefinitions(appRole).map((d) => [d.name, d.checksum]))
    assert.deepEqual(
      recorded.rows.filter((r) => r.checksum !== expected.get(r.name)),
      [],
    )
  })
})
