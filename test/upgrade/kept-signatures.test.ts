/**
 * The rule of docs/schema.md#rolling-upgrades: every database function the previous release's code
 * calls keeps its signature (name, argument types, result type) for one release, so its workers
 * and enqueuing apps keep running on the upgraded schema until they are replaced. The previous
 * release's own `aizk install` makes the schema, this build's install upgrades it, and the
 * catalogue is compared before and after; the called functions are the ones its TypeScript names.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import type pg from 'pg'
import { migrate } from '../../src/db/migrate.js'
import { runCli } from '../support/cli.js'
import { freshDatabases } from '../support/db.js'
import { previousRelease } from '../support/previous-release.js'

const release = previousRelease()
const freshDatabase = freshDatabases({ empty: true })

/** `name(argument types)` -> result type, for every function in the database's schema but triggers' and extensions'. */
async function signatures(pool: pg.Pool): Promise<Map<string, string>> {
  const { rows } = await pool.query<{ signature: string; result: string }>(
    `select p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as signature, pg_get_function_result(p.oid) as result
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = current_schema() and p.prorettype <> 'trigger'::regtype
        and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')`,
  )
  return new Map(rows.map((r) => [r.signature, r.result]))
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  )
}

/** The function names a tree's TypeScript calls (`name(` in its SQL strings), of those given. */
function calledIn(srcDir: string, names: Set<string>): Set<string> {
  const called = new Set<string>()
  const call = /\b([a-z_][a-z0-9_]*)\s*\(/g
  for (const file of sourceFiles(srcDir)) {
    for (const m of readFileSync(file, 'utf8').matchAll(call)) if (names.has(m[1])) called.add(m[1])
  }
  return called
}

describe('functions the previous release calls', { skip: 'skip' in release ? release.skip : false }, () => {
  it('keep their signatures and result types on the schema this build upgrades', async () => {
    if ('skip' in release) return
    const db = await freshDatabase()
    const install = await runCli(['install'], { bin: release.bin, env: { AIZK_DATABASE_URL: db.url }, timeoutMs: 120_000 })
    assert.equal(install.code, 0, `aizk ${release.version} install: ${install.stderr}`)
    const old = await signatures(db.pool)
    const called = calledIn(path.join(release.root, 'src'), new Set([...old.keys()].map((s) => s.slice(0, s.indexOf('(')))))
    assert.ok(called.has('aizk_pick') && called.has('aizk_complete'), `the scan finds the worker's calls (found ${[...called].join(', ')})`)
    const client = await db.pool.connect()
    await migrate(client, { appRole: 'aizk_app' }).finally(() => client.release())
    const now = await signatures(db.pool)
    const broken: string[] = []
    for (const [signature, result] of old) {
      if (!called.has(signature.slice(0, signature.indexOf('(')))) continue
      const kept = now.get(signature)
      if (kept === undefined) broken.push(`${signature} was dropped or its arguments changed`)
      else if (kept !== result) broken.push(`${signature} returned ${result}, now ${kept}`)
    }
    assert.deepEqual(
      broken,
      [],
      `aizk ${release.version} calls these and its workers run beside this build's during an upgrade: keep the old signature one release (docs/schema.md#rolling-upgrades)`,
    )
    console.log(`${called.size} functions aizk ${release.version} calls keep their signatures: ${[...called].sort().join(', ')}`)
  })
})
