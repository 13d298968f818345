/**
 * What a hostile or broken client sends the dashboard: an action's `back` that the URL parser
 * resolves to another host, malformed percent-encoding, an age past PostgreSQL's intervals, a
 * body over the limit, and numbers in other notations. Each is the client's error (a 4xx), and
 * an action only ever sends the browser back to a path of the dashboard itself.
 */
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { cliEnv } from '../support/commands/env.js'
import { insertHeld, insertQueued } from '../support/commands/queue-rows.js'
import { type DashboardProcess, spawnDashboard } from '../support/dashboard/dashboard-process.js'
import { csrfOf, post, request } from '../support/dashboard/http.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase()
let d: DashboardProcess

before(async () => {
  await insertQueued(db.pool, 'dash_ready', 1)
  d = await spawnDashboard(cliEnv(db.url, { AIZK_DASHBOARD_INTERVAL_SECONDS: '0.3' }), [])
})
db.beforeDrop(async () => {
  await d?.stop()
})

describe('the dashboard and malformed or hostile requests', () => {
  it("an action's back never leaves the dashboard", async () => {
    const csrf = csrfOf((await request(new URL('/entrypoints', d.url).toString())).body)
    for (const back of [
      '/.//evil.example/x',
      '/..//evil.example/x',
      '/%2e//evil.example/x',
      '/\t/evil.example/x',
      '//evil.example/x',
      'https://evil.example/x',
      '/\\evil.example',
    ]) {
      const res = await post(d.url, '/actions/resume', { entrypoint: 'dash_ready', _csrf: csrf, back })
      assert.equal(res.status, 303, back)
      const location = String(res.headers.location)
      assert.match(location, /^\/(?!\/)/, `${JSON.stringify(back)} sent the browser to ${location}`)
      assert.equal(new URL(location, d.url).origin, new URL(d.url).origin, `${JSON.stringify(back)} -> ${location}`)
    }
    const own = await post(d.url, '/actions/resume', { entrypoint: 'dash_ready', _csrf: csrf, back: '/held?limit=20' })
    assert.match(String(own.headers.location), /^\/held\?limit=20&done=/)
  })

  it('malformed percent-encoding, an age past the intervals and numbers in other notations are 400s', async () => {
    const [held] = await insertHeld(db.pool, 'dash_held', 1)
    for (const [path, text] of [
      ['/jobs/%E0%A4%A', /not valid percent-encoding/],
      ['/jobs?older=99999999999999d', /longer than 36500 days/],
      ['/held?older=99999999999999d', /longer than 36500 days/],
      ['/jobs?limit=0x10', /per page &quot;0x10&quot;/],
      ['/jobs?limit=1e1', /per page/],
      ['/jobs?limit=16.0', /per page/],
      ['/jobs?after=0x10', /not a job id/],
      [`/jobs/${held}.0`, /not a job id/],
    ] as const) {
      const res = await request(new URL(path, d.url).toString())
      assert.equal(res.status, 400, `${path}: ${res.status} ${res.body.slice(0, 200)}`)
      assert.match(res.body, text, path)
    }
    assert.equal((await request(new URL('/jobs?limit=16', d.url).toString())).status, 200)
    assert.equal((await request(new URL('/jobs?older=36500d', d.url).toString())).status, 200)
  })

  it('a token cookie with malformed encoding is no token (401), not a failure', async () => {
    const guarded = await spawnDashboard(cliEnv(db.url, { AIZK_DASHBOARD_TOKEN: 't'.repeat(32) }), [])
    try {
      const res = await request(new URL('/', guarded.url).toString(), { headers: { cookie: 'aizk_dashboard_token=%E0%A4%A' } })
      assert.equal(res.status, 401, res.body)
    } finally {
      await guarded.stop()
    }
  })

  it('a POST body over 256 KiB is refused with 413, and nothing runs', async () => {
    const csrf = csrfOf((await request(new URL('/entrypoints', d.url).toString())).body)
    const res = await post(d.url, '/actions/pause', { entrypoint: 'dash_ready', _csrf: csrf, back: '/', pad: 'x'.repeat(300 * 1024) })
    assert.equal(res.status, 413, res.body)
    assert.match(res.body, /too large/)
    assert.equal((await db.pool.query('SELECT 1 FROM aizk_entrypoint_pause')).rowCount, 0)
  })
})
