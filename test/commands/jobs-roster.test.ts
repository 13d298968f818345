import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { runCli } from '../support/cli.js'
import { cliEnv } from '../support/commands/env.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase()
let env: Record<string, string>
const A = '0a000000-0000-4000-8000-00000000000a'
const B = '0b000000-0000-4000-8000-00000000000b'

before(async () => {
  env = cliEnv(db.url)
})

describe('aizk jobs types', () => {
  it('lists the inventory with kind, priority, concurrency, attempts, cron, enabled and next fire', async () => {
    const res = await runCli(['jobs', 'types', '--json'], { env: { ...env, AIZK_CHUNK_DISPATCH_CRON: '*/5 * * * *' } })
    assert.equal(res.code, 0, res.stderr)
    const doc = JSON.parse(res.stdout)
    assert.equal(doc.timezone, 'UTC')
    const by = new Map(doc.jobs.map((j: { entrypoint: string }) => [j.entrypoint, j]))
    assert.deepEqual(by.get('cli_strict'), {
      entrypoint: 'cli_strict',
      className: 'CliStrictJob',
      kind: 'on-write',
      priority: 42,
      concurrencyLimit: 3,
      maxAttempts: 5,
      cron: null,
      cronEntrypoint: null,
      enabled: true,
      nextFire: null,
      settings: null,
      payload: {
        kind: 'object',
        fields: [
          { name: 'name', type: 'string', required: true },
          { name: 'count', type: 'integer', required: true },
        ],
        summary: '{name: string, count: integer}',
      },
    })
    assert.deepEqual((by.get('aizk_usage_event') as { payload: { fields: unknown[] } }).payload.fields, [
      { name: 'captureKey', type: 'string', required: true },
      { name: 'scopes', type: 'uuid[] (1+)', required: true },
      { name: 'kind', type: 'string', required: true },
      { name: 'quantity', type: 'number', required: false, default: 1 },
      { name: 'occurredAt', type: 'ISO datetime', required: true },
    ])
    assert.equal((by.get('aizk_task_cleanup') as { payload: { kind: string } }).payload.kind, 'empty')
    const dispatch = by.get('aizk_task_chunk_dispatch') as Record<string, unknown>
    assert.ok(dispatch, 'the inventory registers the chunk dispatch pass')
    assert.deepEqual([dispatch.kind, dispatch.priority, dispatch.concurrencyLimit, dispatch.cron, dispatch.enabled], ['scoped', 10, 1, '*/5 * * * *', true])
    assert.equal(new Date(dispatch.nextFire as string).getUTCMinutes() % 5, 0)
    assert.equal(dispatch.cronEntrypoint, 'aizk_cron_chunk_dispatch')
    const text = await runCli(['jobs', 'types'], { env })
    assert.match(text.stdout, /^ENTRYPOINT\s+KIND\s+PRIORITY\s+CONCURRENCY\s+ATTEMPTS\s+CRON\s+ENABLED\s+NEXT FIRE$/m)
    assert.match(text.stdout, /^cli_strict\s+on-write\s+42\s+3\s+5\s+-\s+yes\s+-$/m)
    assert.match(text.stdout, /^cli_noop\s+on-write\s+0\s+unbounded\s+5/m)
    // What `aizk enqueue --payload` takes, per entrypoint, under the table.
    assert.match(text.stdout, /^PAYLOAD /m)
    assert.match(text.stdout, /^ {2}cli_strict\s+\{name: string, count: integer\}$/m)
    assert.match(
      text.stdout,
      /^ {2}aizk_usage_event\s+\{captureKey: string, scopes: uuid\[\] \(1\+\), kind: string, quantity\?: number = 1, occurredAt: ISO datetime\}$/m,
    )
  })

  it('--kind filters; a bad kind is exit 2', async () => {
    const res = await runCli(['jobs', 'types', '--kind', 'on-write', '--json'], { env })
    assert.equal(res.code, 0, res.stderr)
    assert.ok(JSON.parse(res.stdout).jobs.every((j: { kind: string }) => j.kind === 'on-write'))
    const bad = await runCli(['jobs', 'types', '--kind', 'cron'], { env })
    assert.equal(bad.code, 2)
    assert.match(bad.stderr, /cron/)
  })
})

describe('aizk roster', () => {
  it('lists each exact scope set with its documents, session items and artifacts', async () => {
    await db.pool.query(`INSERT INTO document (scopes, title) VALUES ($1, 'a1'), ($1, 'a2'), ($2, 'ab')`, [[A], [A, B]])
    await db.pool.query(`INSERT INTO session_item (scopes, content) VALUES ($1, 'x')`, [[A, B]])
    await db.pool.query(`INSERT INTO artifact (scopes, content_id) VALUES ($1, 'c1'), ($1, 'c2'), ($1, 'c3')`, [[B]])
    const res = await runCli(['roster', '--json'], { env })
    assert.equal(res.code, 0, res.stderr)
    const doc = JSON.parse(res.stdout)
    assert.equal(doc.count, 3)
    const graph = { chunksPendingProjection: 0, entities: 0, claims: 0, communities: 0, insights: 0 }
    assert.deepEqual(doc.sets, [
      { scopes: [A], documents: 2, sessionItems: 0, artifacts: 0, ...graph },
      { scopes: [A, B], documents: 1, sessionItems: 1, artifacts: 0, ...graph },
      { scopes: [B], documents: 0, sessionItems: 0, artifacts: 3, ...graph },
    ])
    const only = await runCli(['roster', '--scope', B.toUpperCase(), '--json'], { env })
    assert.deepEqual(
      JSON.parse(only.stdout).sets.map((s: { scopes: string[] }) => s.scopes),
      [[A, B], [B]],
    )
    const text = await runCli(['roster'], { env })
    assert.match(text.stdout, new RegExp(`^${A},${B}\\s+1\\s+1\\s+0(\\s+0){5}$`, 'm'))
    assert.match(text.stdout, /3 scope set\(s\)/)
  })

  it('a malformed uuid is exit 2', async () => {
    const res = await runCli(['roster', '--scope', 'not-a-uuid'], { env })
    assert.equal(res.code, 2)
    assert.match(res.stderr, /not a uuid: "not-a-uuid"/)
    assert.match(res.stderr, /hint: scopes are uuids/)
  })
})
