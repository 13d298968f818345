/**
 * Held jobs at scale in Debian's chromium, against a real `aizk dashboard` process: filter the
 * held jobs by error text, see the errors grouped by first line, requeue every matching job
 * through the confirmation that shows the count, and see a job discarded from the CLI leave
 * the held table without a reload (the tables follow the event stream). With
 * AIZK_SCREENSHOT_DIR set, it also writes the screenshots docs/dashboard.md shows
 * (dashboard-held.png, dashboard-held-filtered.png, dashboard-held-confirm.png,
 * dashboard-overview.png, dashboard-jobs.png, dashboard-job.png). Chromium as in browser.test.ts;
 * without one the file skips, saying why.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { before, describe, it } from 'node:test'
import { type BrowserContext, chromium, type Page } from 'playwright-core'
import { repoRoot, runCli } from '../support/cli.js'
import { insertHeld, insertQueued } from '../support/commands/queue-rows.js'
import { type DashboardProcess, spawnDashboard } from '../support/dashboard/dashboard-process.js'
import { fileDatabase } from '../support/db.js'
import { FIXTURE_TABLES, TEST_JOBS } from '../support/worker-process.js'

const found = spawnSync('bash', [path.join(repoRoot, 'scripts', 'find-chromium.sh')], { encoding: 'utf8' })
const CHROMIUM = found.stdout.trim()
const skip = found.status === 0 ? false : `chromium is not available: ${found.stderr.trim() || `find-chromium.sh exited ${found.status}`}`
const SHOTS = process.env.AIZK_SCREENSHOT_DIR
const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

const db = await fileDatabase()
let dash: DashboardProcess
let browser: BrowserContext
let profile: string
const consoleErrors: string[] = []

async function open(p: string): Promise<Page> {
  const page = browser.pages()[0] ?? (await browser.newPage())
  const res = await page.goto(new URL(p, dash.url).toString())
  assert.equal(res?.status(), 200, `${p} answered ${res?.status()}`)
  return page
}

async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return
  mkdirSync(SHOTS, { recursive: true })
  await page.screenshot({ path: path.join(SHOTS, `dashboard-${name}.png`), fullPage: true })
}

async function statusesOf(ids: string[]): Promise<Set<string>> {
  const { rows } = await db.pool.query<{ s: string }>(
    "SELECT coalesce(p.status::text, 'gone') AS s FROM unnest($1::bigint[]) AS w(id) LEFT JOIN pgqueuer p ON p.id = w.id",
    [ids],
  )
  return new Set(rows.map((r) => r.s))
}

describe('held jobs at scale in chromium', { skip }, () => {
  let upstream: string[]
  let badPayload: string[]
  before(async () => {
    await db.pool.query(FIXTURE_TABLES)
    upstream = [
      ...(await insertHeld(db.pool, 'test_noop', 12, { lastError: { type: 'HttpError', message: 'upstream said 503 Service Unavailable' } })),
      ...(await insertHeld(db.pool, 'test_record', 3, { lastError: { type: 'HttpError', message: 'upstream said 503 Service Unavailable' } })),
    ]
    badPayload = await insertHeld(db.pool, 'test_noop', 6, { lastError: 'ValidationError: payload has no "document" field\n  at validate (job.ts:40)' })
    await insertHeld(db.pool, 'test_record', 2, { lastError: { type: 'TimeoutError', message: 'the converter took longer than 300s' } })
    await db.pool.query(
      `INSERT INTO pgqueuer_log (job_id, status, priority, entrypoint, traceback)
       VALUES ($1, 'failed', 0, 'test_noop', jsonb_build_object('exception_type', 'ValidationError', 'exception_message', 'payload has no "document" field',
         'traceback', E'ValidationError: payload has no "document" field\n    at validate (file:///srv/app/jobs/convert.js:40:11)\n    at ConvertJob.run (file:///srv/app/jobs/convert.js:12:5)\n    at runJob (file:///srv/app/node_modules/aizk/dist/worker/run-job.js:88:24)',
         'additional_context', jsonb_build_object('attempts', 5, 'worker', 'node-1')))`,
      [badPayload[1]],
    )
    await insertQueued(db.pool, 'test_record', 4, { executeAfter: new Date(Date.now() + 3600_000).toISOString() })
    await insertQueued(db.pool, 'test_noop', 2)
    dash = await spawnDashboard({ AIZK_DATABASE_URL: db.url, AIZK_WORKER_JOB_MODULES: TEST_JOBS, AIZK_DASHBOARD_INTERVAL_SECONDS: '0.3' })
    profile = mkdtempSync(path.join(os.tmpdir(), 'aizk-chromium-'))
    browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: LAUNCH_ARGS, viewport: { width: 1366, height: 768 } })
    browser.on('page', (p) => p.on('console', (m) => m.type() === 'error' && consoleErrors.push(`${p.url()}: ${m.text()}`)))
    for (const p of browser.pages()) p.on('console', (m) => m.type() === 'error' && consoleErrors.push(`${p.url()}: ${m.text()}`))
  })
  db.beforeDrop(async () => {
    await browser?.close()
    if (profile) rmSync(profile, { recursive: true, force: true })
    await dash?.stop()
  })

  it('filters held jobs by error text, groups the errors, and requeues every matching job after confirming the count', async () => {
    const page = await open('/held')
    await page.locator('#live-status', { hasText: /^live/ }).waitFor()
    const groups = page.getByRole('table', { name: 'Held jobs per error' })
    assert.deepEqual(
      await Promise.all(
        (await groups.locator('tbody tr').all()).map(async (r) => [await r.locator('td').nth(0).textContent(), await r.locator('td').nth(1).textContent()]),
      ),
      [
        ['HttpError: upstream said 503 Service Unavailable', '15'],
        ['ValidationError: payload has no "document" field', '6'],
        ['TimeoutError: the converter took longer than 300s', '2'],
      ],
    )
    assert.equal(await page.getByRole('navigation', { name: 'Job states' }).getByRole('link', { name: /^Held/ }).textContent(), 'Held 23')
    await shoot(page, 'held')
    await page.getByLabel('Error contains').fill('503')
    await Promise.all([page.waitForURL(/\/held\?.*error=503/), page.getByRole('button', { name: 'Show' }).click()])
    assert.match((await page.locator('.bulk').textContent()) ?? '', /15 held job\(s\) matching error containing "503"/)
    assert.equal(await page.getByLabel(`Select job ${badPayload[0]}`).count(), 0, 'a job with another error is filtered out')
    await shoot(page, 'held-filtered')

    await Promise.all([page.waitForURL(/\/held\/confirm\?/), page.getByRole('link', { name: 'Requeue every matching job…' }).click()])
    assert.match((await page.locator('.confirm').textContent()) ?? '', /^Requeue 15 held job\(s\) matching error containing "503"\?$/)
    await shoot(page, 'held-confirm')
    await Promise.all([page.waitForURL(/\/held\?.*done=/), page.getByRole('button', { name: 'Yes, requeue 15 job(s)' }).click()])
    assert.equal(await page.locator('.flash').textContent(), 'requeued 15 held job(s) matching error containing "503"')
    assert.deepEqual(await statusesOf(upstream), new Set(['queued']))
    assert.deepEqual(await statusesOf(badPayload), new Set(['failed']), 'jobs with another error stay held')
    assert.match((await page.locator('main').textContent()) ?? '', /Held jobs: no held job matches/)
    assert.deepEqual(consoleErrors, [])
  })

  it('the held table and the state tabs follow the queue: a job discarded from the CLI leaves them without a reload', async () => {
    const page = await open('/held')
    await page.locator('#live-status', { hasText: /^live/ }).waitFor()
    const row = page.getByLabel(`Select job ${badPayload[0]}`)
    assert.equal(await row.count(), 1)
    const heldTab = page.getByRole('navigation', { name: 'Job states' }).getByRole('link', { name: /^Held/ })
    assert.equal(await heldTab.textContent(), 'Held 8')
    const res = await runCli(['discard', '--id', badPayload[0], '--yes'], { env: { AIZK_DATABASE_URL: db.url, AIZK_WORKER_JOB_MODULES: TEST_JOBS } })
    assert.equal(res.code, 0, res.stderr)
    await row.waitFor({ state: 'detached', timeout: 30_000 })
    await page
      .getByRole('table', { name: 'Held jobs per error' })
      .getByRole('row', { name: /ValidationError.* 5 / })
      .waitFor({ timeout: 30_000 })
    await page.getByRole('navigation', { name: 'Job states' }).getByRole('link', { name: 'Held 7' }).waitFor({ timeout: 30_000 })
    assert.equal(await page.evaluate('performance.getEntriesByType("navigation").length'), 1, 'the page was not reloaded')

    // The entrypoints table follows too: a job held meanwhile shows in its row's count.
    const eps = await open('/entrypoints')
    await eps.locator('#live-status', { hasText: /^live/ }).waitFor()
    const heldCell = eps
      .getByRole('row', { name: /^test_noop / })
      .locator('td')
      .nth(7)
    assert.equal(await heldCell.textContent(), '5')
    await insertHeld(db.pool, 'test_noop', 1, { lastError: 'late failure' })
    await heldCell.filter({ hasText: /^6$/ }).waitFor({ timeout: 30_000 })
    assert.equal(await eps.evaluate('performance.getEntriesByType("navigation").length'), 1, 'the page was not reloaded')
    assert.deepEqual(consoleErrors, [])
  })

  it('the overview shows ready and scheduled jobs apart, its charts have a time axis, and a story shows its traceback as text', async () => {
    const page = await open('/')
    await page.locator('#live-status', { hasText: /^live/ }).waitFor()
    const card = (label: string) => page.locator('.card', { hasText: label }).locator('.n')
    assert.equal(await card('scheduled for later').textContent(), '4')
    assert.equal(await card('ready to run').textContent(), '17', 'the 15 requeued and the 2 queued ready')
    // Pulses redraw the latency chart; each keeps its clock-time labels under the bars.
    await page.locator('[data-chart="latency"] .tick').nth(1).waitFor()
    const ticks = await page.locator('[data-chart="throughput"] .tick').allTextContents()
    assert.ok(ticks.filter((t) => /^\d\d:\d\d$/.test(t)).length >= 4, ticks.join(' '))
    await shoot(page, 'overview')
    const jobs = await open('/jobs?state=scheduled')
    assert.equal(await jobs.getByRole('navigation', { name: 'Job states' }).locator('[aria-current="true"]').textContent(), 'Scheduled 4')
    await shoot(jobs, 'jobs')
    // A held job's story: its failure's traceback record as text, the stack's lines kept.
    const story = await open(`/jobs/${badPayload[1]}`)
    assert.equal(((await story.locator('.traceback pre').first().textContent()) ?? '').split('\n').length, 4)
    assert.doesNotMatch((await story.getByRole('table', { name: 'Log rows' }).textContent()) ?? '', /exception_type|\\n|\{/)
    await shoot(story, 'job')
    assert.deepEqual(consoleErrors, [])
  })
})
