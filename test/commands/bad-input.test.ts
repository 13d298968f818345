/**
 * Issue 11's bad input: each case exits 2 with one clear `error:` line (no stack trace, no Node
 * warning) and writes nothing; the heartbeat pair that let a worker re-pick its own jobs is
 * refused with exit 3 naming both settings.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { runCli } from '../helpers/cli.js'
import { createTestDatabase, type TestDatabase } from '../helpers/db.js'
import { cliEnv } from './support/env.js'

const SCOPE = 'aaaaaaaa-0000-4000-8000-000000000001'
let db: TestDatabase
let env: Record<string, string>

before(async () => {
  db = await createTestDatabase()
  env = cliEnv(db.url)
})
after(async () => {
  await db.drop()
})

async function written(): Promise<{ jobs: number; artifacts: number; content: number }> {
  const { rows } = await db.pool.query(
    'select (select count(*) from pgqueuer)::int as jobs, (select count(*) from artifact)::int as artifacts, (select count(*) from aizk_content)::int as content',
  )
  return rows[0]
}

function assertUsage(res: { code: number; stderr: string }, message: RegExp): void {
  assert.equal(res.code, 2, res.stderr)
  assert.match(res.stderr, /^error: /m)
  assert.match(res.stderr, message)
  assert.doesNotMatch(res.stderr, /\s+at\s+\S+:\d+|DeprecationWarning|›/, 'no stack trace, warning or oclif banner')
}

describe('bad input exits 2 and writes nothing', () => {
  it('an --execute-after past the year 9999', async () => {
    const res = await runCli(['enqueue', 'cli_strict', '--payload', '{"name":"a","count":1}', '--execute-after', '99999999999d'], { env })
    assertUsage(res, /--execute-after "99999999999d" is too far ahead/)
    assert.equal((await written()).jobs, 0)
  })

  it('a dedupe key too long for the index', async () => {
    const key = 'k'.repeat(8000)
    const res = await runCli(['enqueue', 'cli_strict', '--payload', '{"name":"a","count":1}', '--dedupe-key', key], { env })
    assertUsage(res, /--dedupe-key is 8000 bytes; at most 2048/)
    assert.equal((await written()).jobs, 0)
  })

  it('a file that cannot be read (/proc/self/mem)', async () => {
    const res = await runCli(['ingest', '/proc/self/mem', '--scope', SCOPE], { env })
    assertUsage(res, /cannot read \/proc\/self\/mem: EIO/)
    assert.deepEqual(await written(), { jobs: 0, artifacts: 0, content: 0 })
  })

  it('a media type that is not one', async () => {
    const res = await runCli(['ingest', 'package.json', '--scope', SCOPE, '--media-type', 'x;;;'], { env })
    assertUsage(res, /media type "x;;;" is not a media type/)
    assert.deepEqual(await written(), { jobs: 0, artifacts: 0, content: 0 })
  })

  it('a flag that does not parse keeps its reason', async () => {
    const res = await runCli(['enqueue', 'cli_strict', '--priority', 'abc'], { env })
    assertUsage(res, /^error: Parsing --priority: Expected an integer but received: abc$/m)
  })

  it('an unknown command uses the same error line, with a suggestion', async () => {
    const res = await runCli(['enqeue'], { env })
    assertUsage(res, /^error: unknown command "enqeue"$/m)
    assert.match(res.stderr, /^hint: did you mean `aizk enqueue`/m)
    const json = await runCli(['nosuch', '--json'], { env })
    assert.equal(json.code, 2)
    assert.equal(JSON.parse(json.stdout).error.message, 'unknown command "nosuch"')
  })
})

describe('the heartbeat pair is checked together', () => {
  it('an interval not well below the timeout: exit 3 naming both settings', async () => {
    const res = await runCli(['worker'], { env: { ...env, AIZK_HEARTBEAT_INTERVAL_SECONDS: '60', AIZK_HEARTBEAT_TIMEOUT_SECONDS: '5' } })
    assert.equal(res.code, 3, res.stderr)
    assert.match(res.stderr, /AIZK_HEARTBEAT_INTERVAL_SECONDS \(60\) and AIZK_HEARTBEAT_TIMEOUT_SECONDS \(5\)/)
    const flag = await runCli(['worker', '--heartbeat-timeout', '10'], { env })
    assert.equal(flag.code, 3, flag.stderr)
    assert.match(flag.stderr, /AIZK_HEARTBEAT_INTERVAL_SECONDS \(5\) and --heartbeat-timeout/)
  })
})
