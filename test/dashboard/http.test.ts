/**
 * `aizk dashboard` over plain HTTP, a real process on a database of this file's own: every page
 * answers, actions pass only as same-origin POSTs with the page's CSRF token, --read-only refuses
 * them, the Host check keeps a rebound name out, binding beyond loopback needs authentication
 * (exit 2), and token and basic authentication are enforced, on the event stream too.
 */
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { runCli } from '../support/cli.js'
import { cliEnv } from '../support/commands/env.js'
import { insertHeld, insertQueued } from '../support/commands/queue-rows.js'
import { type DashboardProcess, spawnDashboard } from '../support/dashboard/dashboard-process.js'
import { csrfOf, firstEvent, post, request } from '../support/dashboard/http.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase()
let env: Record<string, string>
const running: DashboardProcess[] = []

async function dashboard(extraEnv: Record<string, string> = {}, args: string[] = []): Promise<DashboardProcess> {
  const d = await spawnDashboard({ ...env, ...extraEnv }, args)
  running.push(d)
  return d
}

async function statusOf(id: string): Promise<string | null> {
  const { rows } = await db.pool.query<{ status: string }>('SELECT status::text FROM pgqueuer WHERE id = $1', [id])
  return rows[0]?.status ?? null
}

before(async () => {
  env = cliEnv(db.url, { AIZK_DASHBOARD_INTERVAL_SECONDS: '0.3' })
  await insertQueued(db.pool, 'dash_ready', 3)
})
db.beforeDrop(async () => {
  for (const d of running) await d.stop()
})

describe('aizk dashboard over HTTP', () => {
  let d: DashboardProcess
  before(async () => {
    d = await dashboard()
  })

  it('serves every page, its assets with a strict content policy, and 404 / 400 for what is not there', async () => {
    const [held] = await insertHeld(db.pool, 'dash_held', 1)
    for (const [path, text] of [
      ['/', /Depth per entrypoint and status/],
      ['/entrypoints', /dash_ready/],
      ['/jobs', /dash_ready/],
      ['/jobs?state=queued&entrypoint=dash_ready&limit=2', /Next page \(after job \d+\)/],
      ['/held', /Requeue selected/],
      [`/jobs/${held}`, /Requeue this job/],
      ['/schedules', /Schedules/],
      ['/scopes', /Scope sets/],
    ] as const) {
      const res = await request(new URL(path, d.url).toString())
      assert.equal(res.status, 200, `${path}: ${res.body}`)
      assert.match(res.body, text, path)
      assert.match(String(res.headers['content-security-policy']), /script-src 'self'/)
      assert.doesNotMatch(res.body, /<script>|https?:\/\/(?!127\.0\.0\.1)[a-z]/i, `${path} loads nothing from elsewhere`)
    }
    assert.equal((await request(new URL('/assets/app.js', d.url).toString())).status, 200)
    assert.equal((await request(new URL('/nope', d.url).toString())).status, 404)
    assert.equal((await request(new URL('/jobs/987654321', d.url).toString())).status, 404)
    const bad = await request(new URL('/jobs?state=done', d.url).toString())
    assert.equal(bad.status, 400)
    assert.match(bad.body, /no state &quot;done&quot;/)
  })

  it("an action needs the CSRF token and the dashboard's own Origin; with both it runs and is logged", async () => {
    const [id] = await insertHeld(db.pool, 'dash_held', 1)
    const csrf = csrfOf((await request(new URL('/held', d.url).toString())).body)
    const fields = { action: 'requeue', ids: id, back: '/held' }
    const noToken = await post(d.url, '/actions/held', fields)
    assert.equal(noToken.status, 403)
    assert.match(noToken.body, /CSRF/)
    const wrongToken = await post(d.url, '/actions/held', { ...fields, _csrf: 'x'.repeat(32) })
    assert.equal(wrongToken.status, 403)
    const foreign = await post(d.url, '/actions/held', { ...fields, _csrf: csrf }, { origin: 'http://evil.example' })
    assert.equal(foreign.status, 403)
    assert.match(foreign.body, /cross-origin/)
    const noOrigin = await request(new URL('/actions/held', d.url).toString(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...fields, _csrf: csrf }).toString(),
    })
    assert.equal(noOrigin.status, 403)
    assert.equal(await statusOf(id), 'failed', 'nothing was requeued by a refused request')

    const ok = await post(d.url, '/actions/held', { ...fields, _csrf: csrf })
    assert.equal(ok.status, 303)
    assert.match(String(ok.headers.location), /^\/held\?done=requeued\+1\+job/)
    assert.equal(await statusOf(id), 'queued')
    const logged = d.events.find((e) => e.event === 'dashboard:action' && (e.ids as string[])?.includes(id))
    assert.ok(logged, JSON.stringify(d.events))
    assert.equal(logged.action, 'requeue')

    const again = await post(d.url, '/actions/held', { ...fields, _csrf: csrf })
    assert.match(new URL(String(again.headers.location), d.url).searchParams.get('failed') ?? '', /^not held, nothing done: job \d+ \(queued\)$/)
  })

  it('pause and resume an entrypoint from the entrypoints page', async () => {
    const csrf = csrfOf((await request(new URL('/entrypoints', d.url).toString())).body)
    const paused = await post(d.url, '/actions/pause', { entrypoint: 'dash_ready', _csrf: csrf, back: '/entrypoints' })
    assert.equal(paused.status, 303)
    const { rows } = await db.pool.query('SELECT paused_by FROM aizk_entrypoint_pause WHERE entrypoint = $1', ['dash_ready'])
    assert.match(rows[0].paused_by, /^dashboard anonymous from /)
    assert.match((await request(new URL('/entrypoints', d.url).toString())).body, /Resume dash_ready/)
    await post(d.url, '/actions/resume', { entrypoint: 'dash_ready', _csrf: csrf, back: '/entrypoints' })
    assert.equal((await db.pool.query('SELECT 1 FROM aizk_entrypoint_pause')).rowCount, 0)
  })

  it("a Host that is not the dashboard's address is refused (DNS rebinding)", async () => {
    const res = await request(new URL('/', d.url).toString(), { headers: { host: 'attacker.example:80' } })
    assert.equal(res.status, 421)
  })

  it('the event stream sends pulses with the live counts', async () => {
    const pulse = (await firstEvent(new URL('/events', d.url).toString(), 'pulse')) as { totals: { queued: number } }
    assert.ok(pulse.totals.queued >= 3, JSON.stringify(pulse))
  })

  it('--read-only shows no actions and refuses every POST', async () => {
    const [id] = await insertHeld(db.pool, 'dash_held', 1)
    const ro = await dashboard({}, ['--read-only'])
    const page = (await request(new URL('/held', ro.url).toString())).body
    assert.doesNotMatch(page, /Requeue selected/)
    assert.match(page, /read-only/)
    const res = await post(ro.url, '/actions/held', { action: 'requeue', ids: id, _csrf: csrfOf(page) })
    assert.equal(res.status, 403)
    assert.match(res.body, /read-only/)
    assert.equal(await statusOf(id), 'failed')
    await ro.stop()
  })
})

describe('aizk dashboard: binding and authentication', () => {
  it('refuses an address beyond loopback without authentication: exit 2 before listening', async () => {
    const res = await runCli(['dashboard', '--host', '0.0.0.0', '--port', '0'], { env })
    assert.equal(res.code, 2, res.stderr)
    assert.match(res.stderr, /refusing to serve the dashboard on 0\.0\.0\.0 without authentication/)
    assert.match(res.stderr, /AIZK_DASHBOARD_TOKEN/)
  })

  it('half a basic-auth pair is a settings error (exit 3)', async () => {
    const res = await runCli(['dashboard', '--port', '0'], { env: { ...env, AIZK_DASHBOARD_USER: 'ops' } })
    assert.equal(res.code, 3, res.stderr)
    assert.match(res.stderr, /AIZK_DASHBOARD_USER and AIZK_DASHBOARD_PASSWORD: set both/)
  })

  it('with a token: 401 without it, in by bearer header or by the ?token= cookie, the event stream too', async () => {
    const token = 'a-token-of-32-characters-at-least'
    const d = await dashboard({ AIZK_DASHBOARD_TOKEN: token })
    const home = new URL('/', d.url).toString()
    assert.equal((await request(home)).status, 401)
    assert.equal((await request(home, { headers: { authorization: 'Bearer wrong-token-wrong-token' } })).status, 401)
    assert.equal((await request(home, { headers: { authorization: `Bearer ${token}` } })).status, 200)
    const login = await request(`${home}jobs?token=${token}`)
    assert.equal(login.status, 303)
    assert.equal(login.headers.location, '/jobs')
    const cookie = String(login.headers['set-cookie']).split(';')[0]
    assert.match(String(login.headers['set-cookie']), /HttpOnly; SameSite=Strict/)
    assert.equal((await request(home, { headers: { cookie } })).status, 200)
    await assert.rejects(firstEvent(new URL('/events', d.url).toString(), 'pulse'), /SSE answered 401/)
    assert.ok(await firstEvent(new URL('/events', d.url).toString(), 'pulse', { cookie }))
    await d.stop()
  })

  it('with basic auth: a challenge without credentials, 401 on a wrong password, in with the right one', async () => {
    const d = await dashboard({ AIZK_DASHBOARD_USER: 'ops', AIZK_DASHBOARD_PASSWORD: 'correct horse' })
    const home = new URL('/', d.url).toString()
    const none = await request(home)
    assert.equal(none.status, 401)
    assert.match(String(none.headers['www-authenticate']), /^Basic realm="aizk dashboard"/)
    const basic = (user: string, pass: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}` })
    assert.equal((await request(home, { headers: basic('ops', 'wrong horse') })).status, 401)
    const ok = await request(home, { headers: basic('ops', 'correct horse') })
    assert.equal(ok.status, 200)
    // An action by an authenticated user names them in its log row.
    const [id] = await insertHeld(db.pool, 'dash_held', 1)
    const res = await post(d.url, '/actions/held', { action: 'discard', ids: id, _csrf: csrfOf(ok.body) }, basic('ops', 'correct horse'))
    assert.equal(res.status, 303)
    const { rows } = await db.pool.query(`SELECT traceback FROM pgqueuer_log WHERE job_id = $1 AND status = 'deleted'`, [id])
    assert.match(JSON.stringify(rows[0].traceback), /dashboard user ops from/)
    await d.stop()
  })
})
