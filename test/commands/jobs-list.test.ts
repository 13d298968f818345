/**
 * `aizk jobs`: the live jobs by state, end to end through the real CLI on a database of this
 * file's own: each state alone and all together, filters, keyset pages that cover every row once,
 * scheduled rows soonest due first, and bad input refused with exit 2.
 */
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { runCli } from '../support/cli.js'
import { cliEnv } from '../support/commands/env.js'
import { insertHeld, insertQueued } from '../support/commands/queue-rows.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase()
let env: Record<string, string>

interface Listed {
  id: string
  state: string
  entrypoint: string
  priority: number
  dueInSeconds: number
}

async function list(...args: string[]): Promise<{ jobs: Listed[]; nextAfter: string | null }> {
  const res = await runCli(['jobs', '--json', ...args], { env })
  assert.equal(res.code, 0, res.stderr)
  return JSON.parse(res.stdout)
}

async function walk(...args: string[]): Promise<Listed[]> {
  const seen: Listed[] = []
  let after: string | null = null
  for (let page = 0; page < 50; page++) {
    const doc = await list(...args, '--limit', '3', ...(after ? ['--after', after] : []))
    seen.push(...doc.jobs)
    after = doc.nextAfter
    if (!after) return seen
  }
  throw new Error('paging did not end')
}

before(async () => {
  env = cliEnv(db.url)
  await insertQueued(db.pool, 'ep_a', 4, { priority: 0 })
  await insertQueued(db.pool, 'ep_a', 3, { priority: 5 })
  await insertQueued(db.pool, 'ep_b', 2, { priority: 0 })
  // Scheduled: due in 3h, 1h and 2h, inserted in that order.
  for (const hours of [3, 1, 2]) await insertQueued(db.pool, 'ep_b', 1, { executeAfter: new Date(Date.now() + hours * 3600_000).toISOString() })
  await insertHeld(db.pool, 'ep_a', 2)
  await insertHeld(db.pool, 'ep_c', 1, { priority: 9 })
  await db.pool.query(
    `UPDATE pgqueuer SET status = 'picked', updated = now() - interval '2 hours' WHERE id = (SELECT min(id) FROM pgqueuer WHERE entrypoint = 'ep_b')`,
  )
})

describe('aizk jobs', () => {
  it('every live job in id order, each with its state; pages of 3 cover every row once', async () => {
    const { rows } = await db.pool.query<{ id: string }>('SELECT id::text AS id FROM pgqueuer ORDER BY pgqueuer.id')
    const all = await walk()
    assert.deepEqual(
      all.map((j) => j.id),
      rows.map((r) => r.id),
    )
    const states = all.reduce<Record<string, number>>((m, j) => ({ ...m, [j.state]: (m[j.state] ?? 0) + 1 }), {})
    assert.deepEqual(states, { queued: 8, picked: 1, scheduled: 3, held: 3 })
  })

  it('one state at a time, and filters by entrypoint, priority and age', async () => {
    const queued = await walk('--state', 'queued')
    assert.equal(queued.length, 8)
    assert.ok(queued.every((j) => j.state === 'queued'))
    const ids = queued.map((j) => BigInt(j.id))
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => (a < b ? -1 : 1)),
    )
    assert.deepEqual(
      (await list('--state', 'held')).jobs.map((j) => j.entrypoint),
      ['ep_a', 'ep_a', 'ep_c'],
    )
    assert.deepEqual(
      (await list('--state', 'held', '-e', 'ep_c')).jobs.map((j) => j.priority),
      [9],
    )
    assert.equal((await list('--state', 'queued', '-p', '5')).jobs.length, 3)
    assert.equal((await list('-e', 'ep_a', '-p', '0')).jobs.length, 6)
    const picked = await list('--state', 'picked')
    assert.equal(picked.jobs.length, 1)
    assert.equal(picked.jobs[0].entrypoint, 'ep_b')
    assert.deepEqual(
      (await list('--older-than', '1h')).jobs.map((j) => j.id),
      picked.jobs.map((j) => j.id),
    )
  })

  it('scheduled jobs soonest due first, paged by the last id', async () => {
    const first = await list('--state', 'scheduled', '--limit', '2')
    assert.equal(first.jobs.length, 2)
    const due = first.jobs.map((j) => Math.round(j.dueInSeconds / 3600))
    assert.deepEqual(due, [1, 2])
    assert.ok(first.nextAfter)
    const rest = await list('--state', 'scheduled', '--limit', '2', '--after', first.nextAfter)
    assert.deepEqual(
      rest.jobs.map((j) => Math.round(j.dueInSeconds / 3600)),
      [3],
    )
    assert.equal(rest.nextAfter, null)
  })

  it('text: a table and the way to the next page', async () => {
    const res = await runCli(['jobs', '--limit', '2'], { env })
    assert.equal(res.code, 0, res.stderr)
    assert.match(res.stdout, /ID\s+STATE\s+ENTRYPOINT\s+PRIORITY\s+ATTEMPTS\s+AGE\s+DUE IN/)
    assert.match(res.stdout, /more: the same command with --after \d+/)
    const none = await runCli(['jobs', '-e', 'ep_none'], { env })
    assert.match(none.stdout, /no live jobs match/)
  })

  it('bad input: exit 2 naming the flag, before reading anything', async () => {
    for (const [args, message] of [
      [['--state', 'done'], /Expected --state=done to be one of/],
      [['--after', 'x1'], /--after "x1" is not a job id/],
      [['--limit', '5000'], /--limit 5000 is over 1000/],
      [['--priority', 'high'], /--priority "high" is not a whole number/],
      [['--older-than', 'soon'], /--older-than "soon" is not a duration/],
    ] as const) {
      const res = await runCli(['jobs', ...args], { env })
      assert.equal(res.code, 2, `${args.join(' ')}: ${res.stderr}`)
      assert.match(res.stderr, message)
    }
  })
})
