import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { before, describe, it } from 'node:test'
import { runCli } from '../support/cli.js'
import { cliEnv } from '../support/commands/env.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase()
let env: Record<string, string>
let tmp: string

before(async () => {
  env = cliEnv(db.url)
  tmp = await mkdtemp(path.join(os.tmpdir(), 'aizk-enqueue-'))
})
db.beforeDrop(async () => {
  await rm(tmp, { recursive: true, force: true })
})

async function rowCount(): Promise<number> {
  const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM pgqueuer')
  return rows[0].n
}

describe('aizk enqueue', () => {
  it('enqueues a valid payload with the job priority and prints the id', async () => {
    const res = await runCli(['enqueue', 'cli_strict', '--payload', '{"name":"a","count":2}', '--json'], { env })
    assert.equal(res.code, 0, res.stderr)
    const doc = JSON.parse(res.stdout)
    assert.equal(doc.enqueued, true)
    assert.match(doc.id, /^\d+$/)
    assert.deepEqual([doc.entrypoint, doc.priority, doc.dedupeKey, doc.executeAfter, doc.liveJob], ['cli_strict', 42, null, null, null])
    const { rows } = await db.pool.query(`SELECT priority, status::text, convert_from(payload, 'utf8') AS payload FROM pgqueuer WHERE id = $1`, [doc.id])
    assert.deepEqual(rows[0], { priority: 42, status: 'queued', payload: '{"name":"a","count":2}' })

    const text = await runCli(['enqueue', 'cli_strict', '-p', '{"name":"b","count":1}', '--priority', '80'], { env })
    assert.equal(text.code, 0, text.stderr)
    const id = text.stdout.match(/^enqueued job (\d+) \(cli_strict, priority 80\)/)?.[1]
    assert.ok(id, text.stdout)
  })

  it('reads the payload from stdin and from a file', async () => {
    const piped = await runCli(['enqueue', 'cli_strict', '--json'], { env, input: '{"name":"stdin","count":3}\n' })
    assert.equal(piped.code, 0, piped.stderr)
    const file = path.join(tmp, 'job.json')
    await writeFile(file, '{"name":"file","count":4}')
    const fromFile = await runCli(['enqueue', 'cli_strict', '--payload-file', file, '--json'], { env })
    assert.equal(fromFile.code, 0, fromFile.stderr)
    const { rows } = await db.pool.query(
      `SELECT convert_from(payload, 'utf8')::jsonb->>'name' AS name FROM pgqueuer WHERE id = ANY($1::bigint[]) ORDER BY id`,
      [[JSON.parse(piped.stdout).id, JSON.parse(fromFile.stdout).id]],
    )
    assert.deepEqual(
      rows.map((r) => r.name),
      ['stdin', 'file'],
    )
  })

  it('a live dedupe key: exit 0, not enqueued, names the job holding it', async () => {
    const first = await runCli(['enqueue', 'cli_noop', '--payload', '{}', '--dedupe-key', 'k1', '--json'], { env })
    assert.equal(first.code, 0, first.stderr)
    const firstId = JSON.parse(first.stdout).id
    const again = await runCli(['enqueue', 'cli_noop', '--payload', '{}', '--dedupe-key', 'k1', '--json'], { env })
    assert.equal(again.code, 0, again.stderr)
    const doc = JSON.parse(again.stdout)
    assert.equal(doc.enqueued, false)
    assert.equal(doc.id, null)
    assert.deepEqual(doc.liveJob, { id: firstId, status: 'queued', entrypoint: 'cli_noop' })
    const text = await runCli(['enqueue', 'cli_noop', '--payload', '{}', '--dedupe-key', 'k1'], { env })
    assert.equal(text.code, 0)
    assert.match(text.stdout, new RegExp(`not enqueued: dedupe key "k1" is live: job ${firstId} \\(cli_noop\\) holds it, queued`))
  })

  it('--execute-after takes a duration or a timestamp', async () => {
    const res = await runCli(['enqueue', 'cli_noop', '--payload', '{}', '--execute-after', '5m', '--json'], { env })
    assert.equal(res.code, 0, res.stderr)
    const { rows } = await db.pool.query(`SELECT extract(epoch FROM execute_after - now())::float8 AS s FROM pgqueuer WHERE id = $1`, [
      JSON.parse(res.stdout).id,
    ])
    assert.ok(rows[0].s > 240 && rows[0].s <= 300, String(rows[0].s))
    const at = await runCli(['enqueue', 'cli_noop', '--payload', '{}', '--execute-after', '2030-01-02T03:04:05Z', '--json'], { env })
    assert.equal(at.code, 0, at.stderr)
    assert.equal(JSON.parse(at.stdout).executeAfter, '2030-01-02T03:04:05.000Z')
  })

  it('--force enqueues for an entrypoint only another worker knows', async () => {
    const res = await runCli(['enqueue', 'py_send_mail', '--payload', '{"to":"x"}', '--force', '--json'], { env })
    assert.equal(res.code, 0, res.stderr)
    assert.equal(JSON.parse(res.stdout).priority, 0)
  })

  describe('bad input: exit 2, a message that says what to do, nothing written', () => {
    const cases: { name: string; args: string[]; input?: string; stderr: RegExp[] }[] = [
      { name: 'malformed JSON', args: ['enqueue', 'cli_strict', '--payload', '{"name": '], stderr: [/not valid JSON/, /hint:/] },
      { name: 'malformed JSON on stdin', args: ['enqueue', 'cli_strict'], input: 'nope', stderr: [/from stdin is not valid JSON/] },
      {
        name: 'payload failing the schema, each issue shown',
        args: ['enqueue', 'cli_strict', '--payload', '{"name":"","count":-1,"extra":true}'],
        stderr: [
          /payload for cli_strict is invalid/,
          /name: String must contain at least 1/,
          /count: Number must be greater than 0/,
          /Unrecognized key\(s\) in object: 'extra'/,
          /aizk jobs/,
          /hint: cli_strict takes \{name: string, count: integer\}/,
        ],
      },
      {
        name: 'unknown entrypoint with suggestions',
        args: ['enqueue', 'cli_strictt', '--payload', '{}'],
        stderr: [
          /unknown entrypoint "cli_strictt"/,
          /did you mean "cli_strict"/,
          /name its module in AIZK_WORKER_JOB_MODULES/,
          /--force enqueues for an entrypoint only another worker/,
        ],
      },
      {
        name: 'bad --execute-after',
        args: ['enqueue', 'cli_noop', '--payload', '{}', '--execute-after', 'tomorrow'],
        stderr: [/neither a duration nor a timestamp/, /30s, 5m/],
      },
      { name: 'a forced name that is not an entrypoint', args: ['enqueue', 'Bad-Name', '--force'], stderr: [/not an entrypoint name/] },
      { name: 'both payload flags', args: ['enqueue', 'cli_noop', '--payload', '{}', '--payload-file', 'x.json'], stderr: [/not both/] },
      { name: 'missing payload file', args: ['enqueue', 'cli_noop', '--payload-file', '/nonexistent/x.json'], stderr: [/cannot read --payload-file/] },
      { name: 'an unknown flag', args: ['enqueue', 'cli_noop', '--frobnicate'], stderr: [/frobnicate/] },
      { name: 'a missing entrypoint', args: ['enqueue'], stderr: [/entrypoint/i] },
    ]
    for (const c of cases) {
      it(c.name, async () => {
        const before = await rowCount()
        const res = await runCli(c.args, { env, input: c.input })
        assert.equal(res.code, 2, `${res.stdout}\n${res.stderr}`)
        for (const re of c.stderr) assert.match(res.stderr, re)
        assert.doesNotMatch(res.stderr, /\s+at\s+\S+\.js:\d+/, 'no stack trace')
        assert.equal(await rowCount(), before)
      })
    }

    it('--json gives an error document with the schema issues', async () => {
      const res = await runCli(['enqueue', 'cli_strict', '--payload', '{"count":"x"}', '--json'], { env })
      assert.equal(res.code, 2)
      const doc = JSON.parse(res.stdout)
      assert.equal(doc.error.code, 'usage')
      assert.deepEqual(doc.error.details, ['name: Required', 'count: Expected number, received string'])
    })

    it('--json gives the suggestions for an unknown entrypoint', async () => {
      const res = await runCli(['enqueue', 'cli_nop', '--json'], { env })
      assert.equal(res.code, 2)
      assert.deepEqual(JSON.parse(res.stdout).error.details, { entrypoint: 'cli_nop', suggestions: ['cli_noop'] })
    })
  })
})
