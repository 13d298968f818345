/**
 * Held jobs at scale in the dashboard, over HTTP against a real `aizk dashboard` process: state
 * tabs with counts, filters by entrypoint and error text (the worker's kept error or, lacking
 * one, the latest `failed` log row's traceback), errors grouped by their first line, and the
 * "every matching job" action: its confirmation shows the count, it moves only what was
 * confirmed, is refused without the CSRF token or past its bound, and is logged. Also the
 * scheduled card apart from the ready one, the charts' time axis, a traceback as text and the
 * entrypoints each worker runs.
 */
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { cliEnv } from '../support/commands/env.js'
import { insertHeld, insertQueued } from '../support/commands/queue-rows.js'
import { type DashboardProcess, spawnDashboard } from '../support/dashboard/dashboard-process.js'
import { csrfOf, firstEvent, post, request } from '../support/dashboard/http.js'
import { fileDatabase } from '../support/db.js'

const TIMEOUT = { type: 'TimeoutError', message: 'upstream timed out after 30s' }

const db = await fileDatabase()
let d: DashboardProcess
let timedOutA: string[]
let badPayload: string[]
let timedOutB: string[]
let fromLog: string

async function page(path: string): Promise<string> {
  const res = await request(new URL(path, d.url).toString())
  assert.equal(res.status, 200, `${path}: ${res.body}`)
  return res.body
}

async function statuses(ids: string[]): Promise<string[]> {
  const { rows } = await db.pool.query<{ s: string | null }>(
    'SELECT p.status::text AS s FROM unnest($1::bigint[]) WITH ORDINALITY AS w(id, n) LEFT JOIN pgqueuer p ON p.id = w.id ORDER BY w.n',
    [ids],
  )
  return rows.map((r) => r.s ?? 'gone')
}

/** The number a "N held job(s) match" bar shows. */
function matchCount(body: string): number | null {
  const m = /<strong>([\d,]+)<\/strong> held job\(s\)( matching| in all)/.exec(body)
  return m ? Number(m[1].replace(/,/g, '')) : null
}

before(async () => {
  timedOutA = await insertHeld(db.pool, 'bulk_a', 30, { lastError: TIMEOUT })
  badPayload = await insertHeld(db.pool, 'bulk_a', 5, { lastError: 'ValueError: bad payload\n  at parse (job.ts:3)' })
  timedOutB = await insertHeld(db.pool, 'bulk_b', 4, { lastError: TIMEOUT })
  ;[fromLog] = await insertHeld(db.pool, 'bulk_b', 1)
  await db.pool.query(
    `INSERT INTO pgqueuer_log (job_id, status, priority, entrypoint, traceback)
     VALUES ($1, 'failed', 0, 'bulk_b', jsonb_build_object('exception_type', 'KeyError', 'exception_message', 'missing key "doc"',
       'traceback', E'Traceback (most recent call last):\\n  File "job.py", line 9, in run\\nKeyError: ''doc''', 'additional_context', jsonb_build_object('attempt', 5)))`,
    [fromLog],
  )
  await insertQueued(db.pool, 'bulk_ready', 3)
  await insertQueued(db.pool, 'bulk_later', 7, { executeAfter: new Date(Date.now() + 3600_000).toISOString() })
  await db.pool.query(
    `INSERT INTO aizk_worker (queue_manager_id, host, pid, version, entrypoints) VALUES (gen_random_uuid(), 'bulk-host', 4242, '0.1.0', ARRAY['bulk_a', 'bulk_ready'])`,
  )
  d = await spawnDashboard(cliEnv(db.url, { AIZK_DASHBOARD_INTERVAL_SECONDS: '0.3' }))
})
db.beforeDrop(async () => {
  await d?.stop()
})

describe('held jobs at scale in the dashboard', () => {
  it('shows state tabs with counts, and the scheduled jobs apart from the ready ones', async () => {
    const jobs = await page('/jobs')
    for (const [label, n] of [
      ['Every live job', 50],
      ['Ready', 3],
      ['Scheduled', 7],
      ['Running', 0],
      ['Held', 40],
    ] as const) {
      assert.match(jobs, new RegExp(`>${label} <span class="count" data-live="states\\.[a-z]+">${n}</span>`), label)
    }
    assert.match(await page('/held'), /<a href="\/held" aria-current="true">Held <span/)
    const overview = await page('/')
    assert.match(overview, /data-live="states.ready">3<\/span><span class="k">ready to run/)
    assert.match(overview, /data-live="states.scheduled">7<\/span><span class="k">scheduled for later/)
    const pulse = (await firstEvent(new URL('/events', d.url).toString(), 'pulse')) as { states: Record<string, number> }
    assert.deepEqual(pulse.states, { ready: 3, scheduled: 7, picked: 0, held: 40, all: 50 })
  })

  it('filters held jobs by error text (kept error or log traceback, any case) and entrypoint, and groups errors by first line', async () => {
    const all = await page('/held')
    assert.equal(matchCount(all), 40)
    const groups = [...all.matchAll(/<a class="error-line" href="[^"]*">([^<]+)<\/a><\/td><td class="num">(\d+)<\/td>/g)].map((m) => [m[1], Number(m[2])])
    assert.deepEqual(groups, [
      ['TimeoutError: upstream timed out after 30s', 34],
      ['ValueError: bad payload', 5],
      ['KeyError: missing key &quot;doc&quot;', 1],
    ])
    assert.equal(matchCount(await page('/held?error=TIMED+OUT')), 34)
    assert.equal(matchCount(await page('/held?error=timed+out&entrypoint=bulk_b')), 4)
    const keyError = await page('/held?error=keyerror')
    assert.equal(matchCount(keyError), 1)
    assert.match(keyError, new RegExp(`aria-label="Select job ${fromLog}"`))
    assert.doesNotMatch(keyError, new RegExp(`aria-label="Select job ${timedOutA[0]}"`))
    assert.match(await page('/held?error=no+such+error'), /Held jobs per error: no held job matches/)
    const tooLong = await request(new URL(`/held?error=${'x'.repeat(201)}`, d.url).toString())
    assert.equal(tooLong.status, 400)
    assert.match(tooLong.body, /the error text is 201 characters long/)
  })

  it('requeues every job matching a filter after a confirmation that shows the count, and logs it', async () => {
    const confirm = await page('/held/confirm?action=requeue&entrypoint=bulk_a&error=timed+out')
    assert.match(confirm, /<strong>Requeue 30 held job\(s\)<\/strong> matching entrypoint bulk_a, error containing &quot;timed out&quot;/)
    assert.match(confirm, /<input type="hidden" name="expected" value="30">/)
    const csrf = csrfOf(confirm)
    const fields = { action: 'requeue', entrypoint: 'bulk_a', error: 'timed out', expected: '30', back: '/held?entrypoint=bulk_a' }
    assert.equal((await post(d.url, '/actions/held-matching', fields)).status, 403, 'no CSRF token, no action')
    assert.deepEqual(new Set(await statuses(timedOutA)), new Set(['failed']))

    const res = await post(d.url, '/actions/held-matching', { ...fields, _csrf: csrf })
    assert.equal(res.status, 303)
    const flash = new URL(String(res.headers.location), d.url).searchParams.get('done')
    assert.equal(flash, 'requeued 30 held job(s) matching entrypoint bulk_a, error containing "timed out"')
    assert.deepEqual(new Set(await statuses(timedOutA)), new Set(['queued']))
    assert.deepEqual(new Set(await statuses([...badPayload, ...timedOutB, fromLog])), new Set(['failed']), 'jobs outside the filter stay held')
    const logged = d.events.find((e) => e.event === 'dashboard:action' && e.filter === 'entrypoint bulk_a, error containing "timed out"')
    assert.ok(logged, JSON.stringify(d.events))
    assert.equal(logged.action, 'requeue')
    assert.equal(logged.count, 30)
    assert.equal(logged.firstId, timedOutA[0])
    assert.equal(logged.lastId, timedOutA[29])
    assert.match(String(logged.by), /^dashboard anonymous from /)
  })

  it('moves no more than the confirmed count, oldest first, and refuses a count past its bound', async () => {
    const csrf = csrfOf(await page('/held'))
    const res = await post(d.url, '/actions/held-matching', { action: 'discard', error: 'valueerror', expected: '2', back: '/held', _csrf: csrf })
    assert.equal(
      new URL(String(res.headers.location), d.url).searchParams.get('done'),
      'discarded 2 held job(s) matching error containing "valueerror"; 3 still match',
    )
    assert.deepEqual(await statuses(badPayload), ['gone', 'gone', 'failed', 'failed', 'failed'])
    const { rows } = await db.pool.query<{ by: string }>(
      `SELECT traceback->'additional_context'->>'by' AS by FROM pgqueuer_log WHERE status = 'deleted' AND job_id = ANY($1::bigint[])`,
      [badPayload.slice(0, 2)],
    )
    assert.equal(rows.length, 2)
    assert.match(rows[0].by, /^dashboard anonymous from /)

    const over = await post(d.url, '/actions/held-matching', { action: 'discard', error: 'valueerror', expected: '10001', back: '/held', _csrf: csrf })
    assert.match(new URL(String(over.headers.location), d.url).searchParams.get('failed') ?? '', /^the confirmed count must be a whole number from 1 to 10000/)
    assert.deepEqual(await statuses(badPayload.slice(2)), ['failed', 'failed', 'failed'])
    const refused = d.events.find((e) => e.event === 'dashboard:refused' && e.action === 'held-matching')
    assert.ok(refused, 'the refusal is logged')
  })

  it('--read-only shows no bulk action and no confirmation, and refuses its POST', async () => {
    const ro = await spawnDashboard(cliEnv(db.url), ['--read-only'])
    try {
      const held = await request(new URL('/held?error=timeout', ro.url).toString())
      assert.equal(held.status, 200)
      assert.doesNotMatch(held.body, /every matching job/)
      const confirm = await request(new URL('/held/confirm?action=discard&error=timeout', ro.url).toString())
      assert.equal(confirm.status, 400)
      assert.match(confirm.body, /read-only dashboard: actions are off/)
      const res = await post(ro.url, '/actions/held-matching', { action: 'discard', error: 'timeout', expected: '4', _csrf: csrfOf(held.body) })
      assert.equal(res.status, 403)
      assert.deepEqual(new Set(await statuses(timedOutB)), new Set(['failed']))
    } finally {
      await ro.stop()
    }
  })

  it('shows a traceback as wrapped text, not escaped JSON', async () => {
    const story = await page(`/jobs/${fromLog}`)
    assert.match(
      story,
      /<p class="error-line"><strong>KeyError: missing key &quot;doc&quot;<\/strong><\/p><pre class="wrap">Traceback \(most recent call last\):\n {2}File &quot;job.py&quot;, line 9, in run\nKeyError: &#39;doc&#39;<\/pre>/,
    )
    assert.match(story, /<dt>attempt<\/dt><dd>5<\/dd>/)
    assert.doesNotMatch(story, /&quot;exception_type&quot;/)
  })

  it('draws the charts with a time axis, and lists the entrypoints each worker runs', async () => {
    const overview = await page('/')
    const ticks = [...overview.matchAll(/<text [^>]*class="tick">(\d\d:\d\d(?::\d\d)?)<\/text>/g)].map((m) => m[1])
    assert.ok(ticks.length >= 4, `time-axis labels: ${ticks.join(' ')}`)
    assert.match(overview, /<td>bulk-host<\/td>.*<span class="list">bulk_a, bulk_ready<\/span>/s)
  })
})
