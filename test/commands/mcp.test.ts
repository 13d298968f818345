/**
 * `aizk mcp` end to end: the real command spawned over stdio, driven by the MCP SDK's own
 * client, on a database of this file's own holding jobs in every state, log rows, a schedule, a
 * stale pick of a foreign worker and tenant memory. Every tool is called; the action tools are
 * absent without --allow-actions and change the queue with it; no answer carries memory content,
 * and the server's scoped reads run as the app login (AIZK_APP_DATABASE_URL), under row security.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { before, describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { enqueue } from '../../src/queue/enqueue.js'
import { fileAppLogin } from '../support/app-login.js'
import { binPath, cleanEnv, repoRoot } from '../support/cli.js'
import { insertHeld, insertLog } from '../support/commands/queue-rows.js'
import { fileDatabase } from '../support/db.js'
import { TEST_JOBS } from '../support/worker-process.js'

const READ_TOOLS = [
  'active_workers',
  'failed_jobs',
  'job_story',
  'memory_backlog',
  'queue_age',
  'queue_health',
  'queue_log',
  'queue_size',
  'queue_stats',
  'queue_table_info',
  'schedules',
  'schema_info',
  'scope_roster',
  'stale_jobs',
  'throughput_summary',
]
const ACTION_TOOLS = ['cancel_jobs', 'pause_entrypoint', 'requeue_jobs', 'resume_entrypoint']
const SECRET = 'tenant-secret-7f3a'
const A = '0b6f3c1e-8d2a-4f5b-9c7e-1a2b3c4d5e6f'

const db = await fileDatabase()
const login = await fileAppLogin(db)
let held: string[]
let queued: string[]
const foreignWorker = randomUUID()
const clients: Client[] = []

before(async () => {
  queued = [
    String(await enqueue(db.pool, { entrypoint: 'test_noop', payload: { n: 1 }, priority: 5 })),
    String(await enqueue(db.pool, { entrypoint: 'test_noop', payload: { n: 2 }, priority: 9 })),
  ]
  held = await insertHeld(db.pool, 'test_fail', 2, { lastError: { type: 'TypeError', message: 'boom' } })
  await db.pool.query(
    `INSERT INTO pgqueuer (priority, entrypoint, payload, status, queue_manager_id, heartbeat) VALUES (0, 'py_mail', NULL, 'picked', $1, now() - interval '2 hours')`,
    [foreignWorker],
  )
  await insertLog(db.pool, 7, 0, 'aizk_usage_event')
  await db.pool.query(
    `INSERT INTO pgqueuer_log (job_id, status, priority, entrypoint, traceback) VALUES ($1, 'failed', 0, 'test_fail', '{"exception_type": "TypeError", "exception_message": "boom"}')`,
    [held[0]],
  )
  await db.pool.query(`INSERT INTO pgqueuer_schedules (expression, entrypoint, next_run) VALUES ('* * * * *', 'aizk_cron_probe', now() + interval '1 minute')`)
  await db.pool.query(`INSERT INTO document (scopes, title) VALUES ($1, $2)`, [[A], `${SECRET} title`])
  await db.pool.query(`INSERT INTO session_item (scopes, content) VALUES ($1, $2)`, [[A], `${SECRET} content`])
})
db.beforeDrop(async () => {
  for (const c of clients) await c.close().catch(() => {})
})

async function connect(args: string[] = []): Promise<Client> {
  // Scoped reads (the roster's counts) run on a login that is neither owner nor superuser.
  const env = cleanEnv({ AIZK_DATABASE_URL: db.url, AIZK_APP_DATABASE_URL: login.url, AIZK_WORKER_JOB_MODULES: TEST_JOBS }) as Record<string, string>
  const transport = new StdioClientTransport({ command: process.execPath, args: [binPath, 'mcp', ...args], env, cwd: repoRoot, stderr: 'pipe' })
  const client = new Client({ name: 'aizk-test', version: '1.0.0' })
  await client.connect(transport)
  clients.push(client)
  return client
}

const answers: string[] = []

// biome-ignore lint/suspicious/noExplicitAny: a tool's JSON answer, checked field by field below
type Answer = any

/** Call a tool and return its JSON answer (asserting it is not an error). */
async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Answer> {
  const res = await client.callTool({ name, arguments: args })
  const text = (res.content as { type: string; text: string }[])[0].text
  answers.push(text)
  assert.notEqual(res.isError, true, `${name}: ${text}`)
  return JSON.parse(text)
}

async function callError(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const res = await client.callTool({ name, arguments: args })
  assert.equal(res.isError, true, `${name} should fail`)
  return (res.content as { text: string }[])[0].text
}

describe('aizk mcp', () => {
  it('read-only by default: every read tool answers from the queue tables, no action tool is offered', async () => {
    const client = await connect()
    const { tools } = await client.listTools()
    assert.deepEqual(tools.map((t: Answer) => t.name).sort(), READ_TOOLS)
    for (const t of tools) assert.equal(t.annotations?.readOnlyHint, true, t.name)

    const size = await call(client, 'queue_size')
    const count = (ep: string, state: string) =>
      size.filter((r: Answer) => r.entrypoint === ep && r.state === state).reduce((n: number, r: Answer) => n + r.count, 0)
    assert.deepEqual([count('test_noop', 'queued'), count('test_fail', 'held'), count('py_mail', 'picked')], [2, 2, 1])

    const page = await call(client, 'queue_table_info', { limit: 2 })
    assert.deepEqual(
      page.map((r: Answer) => r.id),
      [queued[1], queued[0]],
    )
    assert.equal(page[0].payload, '{"n":2}')
    const next = await call(client, 'queue_table_info', { limit: 10, offset: 2 })
    assert.deepEqual(
      next.map((r: Answer) => r.id).sort(),
      [...held, (await db.pool.query("SELECT id::text FROM pgqueuer WHERE entrypoint = 'py_mail'")).rows[0].id].sort(),
    )

    const buckets = await call(client, 'queue_stats', { period: 'PT1H', limit: 100 })
    assert.equal(
      buckets.filter((b: Answer) => b.entrypoint === 'aizk_usage_event' && b.status === 'successful').reduce((n: number, b: Answer) => n + b.count, 0),
      7,
    )
    const summary = await call(client, 'throughput_summary', { period: '10m' })
    assert.deepEqual(
      summary.totals.find((t: Answer) => t.entrypoint === 'aizk_usage_event'),
      { entrypoint: 'aizk_usage_event', status: 'successful', count: 7 },
    )
    assert.equal(summary.periodSeconds, 600)

    const failed = await call(client, 'failed_jobs', { limit: 10 })
    assert.equal(failed.held.count, 2)
    assert.deepEqual(
      failed.held.jobs.map((j: Answer) => j.lastError),
      ['TypeError: boom', 'TypeError: boom'],
    )
    assert.deepEqual(
      failed.recentFailures.map((f: Answer) => [f.jobId, f.status, f.traceback.exception_message]),
      [[held[0], 'failed', 'boom']],
    )

    const log = await call(client, 'queue_log', { limit: 3 })
    assert.equal(log.length, 3)
    assert.equal(log[0].status, 'failed')

    const schedules = await call(client, 'schedules')
    assert.deepEqual(
      schedules.map((s: Answer) => [s.entrypoint, s.expression, s.foreign]),
      [['aizk_cron_probe', '* * * * *', false]],
    )

    const stale = await call(client, 'stale_jobs', { threshold: 'PT1M' })
    assert.deepEqual(
      stale.jobs.map((j: Answer) => [j.entrypoint, j.queueManagerId]),
      [['py_mail', foreignWorker]],
    )
    const workers = await call(client, 'active_workers')
    assert.deepEqual(
      workers.foreign.map((w: Answer) => [w.queueManagerId, w.picked]),
      [[foreignWorker, 1]],
    )
    assert.deepEqual(workers.workers, [])

    const age = await call(client, 'queue_age')
    assert.deepEqual(
      age.map((a: Answer) => [a.entrypoint, a.queuedCount]),
      [['test_noop', 2]],
    )
    assert.ok(age[0].oldestReadyAgeSeconds >= 0)

    const schema = await call(client, 'schema_info')
    assert.equal(schema.schema.current, schema.schema.latest)
    assert.deepEqual(schema.schema.pending, [])
    assert.deepEqual(schema.tables.find((t: Answer) => t.table === 'pgqueuer').persistence, 'LOGGED')
    assert.ok(
      schema.tables.every((t: Answer) => t.exists),
      JSON.stringify(schema.tables),
    )

    const story = await call(client, 'job_story', { id: held[0] })
    assert.equal(story.state, 'held')
    assert.equal(story.log.at(-1).status, 'failed')
    assert.equal(story.lastError.message, 'boom')
    assert.match(await callError(client, 'job_story', { id: '999999' }), /no job 999999/)
    assert.match(await callError(client, 'job_story', { id: 'abc' }), /not a job id/)

    const health = await call(client, 'queue_health')
    assert.equal(health.healthy, false)
    assert.deepEqual(health.problems.map((p: Answer) => p.code).sort(), ['held_over_threshold', 'stale_picks'])
    assert.deepEqual(health.totals, { queued: 2, picked: 1, held: 2 })

    const roster = await call(client, 'scope_roster')
    assert.deepEqual(roster, [
      { scopes: [A], documents: 1, sessionItems: 1, artifacts: 0, chunksPendingProjection: 0, entities: 0, claims: 0, communities: 0, insights: 0 },
    ])
    const backlog = await call(client, 'memory_backlog')
    assert.deepEqual([backlog.chunksPendingProjection, backlog.dirtyProfiles], [0, 0])

    assert.match(await callError(client, 'queue_stats', { period: 'yesterday' }), /period "yesterday" is not a positive duration/)
    const refused = await client
      .callTool({ name: 'requeue_jobs', arguments: { ids: [held[0]] } })
      .catch((err: Error) => ({ isError: true, content: [{ text: err.message }] }))
    assert.equal(refused.isError, true)
    assert.match((refused.content as { text: string }[])[0].text, /requeue_jobs/)
    const { rows } = await db.pool.query('SELECT status::text FROM pgqueuer WHERE id = $1', [held[0]])
    assert.deepEqual(rows, [{ status: 'failed' }])

    for (const a of answers) assert.ok(!a.includes(SECRET), `an answer carries memory content: ${a.slice(0, 200)}`)
  })

  it('--allow-actions adds requeue, cancel, pause and resume, run by the same core as the commands', async () => {
    const client = await connect(['--allow-actions'])
    const { tools } = await client.listTools()
    assert.deepEqual(tools.map((t: Answer) => t.name).sort(), [...READ_TOOLS, ...ACTION_TOOLS].sort())
    assert.equal(tools.find((t: Answer) => t.name === 'cancel_jobs')?.annotations?.destructiveHint, true)

    assert.match(await callError(client, 'requeue_jobs', {}), /give ids or entrypoints/)
    assert.match(await callError(client, 'requeue_jobs', { ids: [queued[0]] }), new RegExp(`not held: job ${queued[0]} \\(queued\\)`))
    const requeued = await call(client, 'requeue_jobs', { ids: [held[0]] })
    assert.deepEqual(
      requeued.requeued.map((r: Answer) => [r.id, r.cycles]),
      [[held[0], 1]],
    )
    const after1 = await db.pool.query('SELECT id::text, status::text FROM pgqueuer WHERE id = ANY($1::bigint[]) ORDER BY id', [held])
    assert.deepEqual(
      after1.rows.map((r: Answer) => r.status),
      ['queued', 'failed'],
    )

    const canceled = await call(client, 'cancel_jobs', { entrypoints: ['test_noop'], limit: 10 })
    assert.equal(canceled.count, 2)
    const log = await db.pool.query(`SELECT job_id::text FROM pgqueuer_log WHERE status = 'canceled' ORDER BY job_id`)
    assert.deepEqual(
      log.rows.map((r: Answer) => r.job_id),
      [...queued].sort(),
    )

    const paused = await call(client, 'pause_entrypoint', { entrypoint: 'test_fail', reason: 'probe' })
    assert.deepEqual([paused.paused, paused.changed, paused.reason], [true, true, 'probe'])
    assert.match(paused.pausedBy, /\(mcp\)$/)
    assert.equal((await db.pool.query(`SELECT count(*)::int AS n FROM aizk_entrypoint_pause WHERE entrypoint = 'test_fail'`)).rows[0].n, 1)
    const resumed = await call(client, 'resume_entrypoint', { entrypoint: 'test_fail' })
    assert.deepEqual([resumed.paused, resumed.changed], [false, true])
    assert.equal((await db.pool.query('SELECT count(*)::int AS n FROM aizk_entrypoint_pause')).rows[0].n, 0)
    assert.match(await callError(client, 'pause_entrypoint', { entrypoint: 'Bad Name' }), /is not an entrypoint name/)
  })

  it('a client that writes its requests and closes stdin gets every answer, then the server exits 0', async () => {
    const child = spawn(process.execPath, [binPath, 'mcp'], { cwd: repoRoot, env: cleanEnv({ AIZK_DATABASE_URL: db.url }), stdio: ['pipe', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
    })
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'queue_age', arguments: {} } },
    ]
    child.stdin.end(messages.map((m) => JSON.stringify(m)).join('\n') + '\n')
    assert.equal(await exited, 0)
    const answers = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    assert.deepEqual(
      answers.map((a) => a.id),
      [1, 2],
    )
    assert.equal(answers[1].result.isError, undefined)
  })
})
