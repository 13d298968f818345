/**
 * Every function the app role may execute is called by aizk: by a statement in src/ or by another
 * definition (a trigger, a policy, a function). A function nothing calls is revoked and dropped by
 * a migration (as 0034 did for aizk_scopes_proven and aizk_setting_scopes), not left granted.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { freshDatabases } from '../support/db.js'

const appRole = 'aizk_app'
const srcDir = path.join(import.meta.dirname, '..', '..', 'src')
const definitionsDir = path.join(srcDir, 'db', 'definitions')
const installedDb = freshDatabases()

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]))
}

/** Source text, definitions and migrations (a table's CHECK calls aizk_scopes_valid). */
const callers = files(srcDir)
  .filter((f) => f.endsWith('.ts') || f.endsWith('.sql'))
  .map((f) => ({ file: f, text: readFileSync(f, 'utf8') }))

describe('functions granted to the app role', () => {
  it('are each called by a statement in src/ or by another definition', async () => {
    const db = await installedDb()
    const { rows } = await db.pool.query<{ name: string }>(
      `select distinct p.proname as name from pg_proc p, aclexplode(p.proacl) a
        where p.pronamespace = 'public'::regnamespace and a.privilege_type = 'EXECUTE' and a.grantee = $1::regrole order by 1`,
      [appRole],
    )
    assert.ok(rows.length > 5, 'the app role executes some functions')
    const uncalled = rows
      .map((r) => r.name)
      .filter((name) => {
        const own = path.join(definitionsDir, 'functions', `${name}.sql`)
        // A call, not a GRANT, REVOKE or DROP naming the function.
        const call = new RegExp(`(?<!FUNCTION\\s+(IF EXISTS\\s+)?)\\b${name}\\s*\\(`, 'i')
        return !callers.some((c) => c.file !== own && call.test(c.text))
      })
    assert.deepEqual(uncalled, [], 'granted to the app role, called by nothing: revoke and drop it in a migration')
  })
})
