/**
 * The dashboard in a real browser: Debian's chromium, headless, driven by playwright-core against
 * a real `aizk dashboard` process and a real worker. Loads every page (no console error, so no
 * blocked asset or script), checks keyboard entry and labels, requeues a held job through the
 * held page and sees it change, then sees the worker's completion of it arrive by SSE.
 * Chromium is the one scripts/find-chromium.sh names (AIZK_CHROMIUM, the machine's
 * /usr/bin/chromium, or the one scripts/fetch-chromium.sh unpacked into this user's cache; nothing
 * is installed); without one the file skips, saying why.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { before, describe, it } from 'node:test'
import { type BrowserContext, chromium, type Page } from 'playwright-core'
import { repoRoot } from '../support/cli.js'
import { insertHeld, insertQueued } from '../support/commands/queue-rows.js'
import { type DashboardProcess, spawnDashboard } from '../support/dashboard/dashboard-process.js'
import { fileDatabase } from '../support/db.js'
import { FIXTURE_TABLES, fastWorkerEnv, killAll, type SpawnedWorker, spawnWorker, TEST_JOBS } from '../support/worker-process.js'

const found = spawnSync('bash', [path.join(repoRoot, 'scripts', 'find-chromium.sh')], { encoding: 'utf8' })
const CHROMIUM = found.stdout.trim()
const skip = found.status === 0 ? false : `chromium is not available: ${found.stderr.trim() || `find-chromium.sh exited ${found.status}`}`

export const LAUNCH_ARGS = [
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
const workers: SpawnedWorker[] = []
const consoleErrors: string[] = []

async function open(p: string): Promise<Page> {
  const page = browser.pages()[0] ?? (await browser.newPage())
  const res = await page.goto(new URL(p, dash.url).toString())
  assert.equal(res?.status(), 200, `${p} answered ${res?.status()}`)
  return page
}

describe('the dashboard in chromium', { skip }, () => {
  let held: string[]
  before(async () => {
    await db.pool.query(FIXTURE_TABLES)
    held = await insertHeld(db.pool, 'test_noop', 2, { lastError: { type: 'Error', message: 'upstream said 503' } })
    await insertQueued(db.pool, 'test_record', 2, { executeAfter: new Date(Date.now() + 3600_000).toISOString() })
    dash = await spawnDashboard({ AIZK_DATABASE_URL: db.url, AIZK_WORKER_JOB_MODULES: TEST_JOBS, AIZK_DASHBOARD_INTERVAL_SECONDS: '0.3' })
    profile = mkdtempSync(path.join(os.tmpdir(), 'aizk-chromium-'))
    browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: LAUNCH_ARGS, viewport: { width: 1366, height: 768 } })
    browser.on('page', (p) => p.on('console', (m) => m.type() === 'error' && consoleErrors.push(`${p.url()}: ${m.text()}`)))
    for (const p of browser.pages()) p.on('console', (m) => m.type() === 'error' && consoleErrors.push(`${p.url()}: ${m.text()}`))
  })
  db.beforeDrop(async () => {
    await browser?.close()
    if (profile) rmSync(profile, { recursive: true, force: true })
    await killAll(workers)
    await dash?.stop()
  })

  it('loads every page with its title, labelled controls and no console error', async () => {
    for (const [p, title] of [
      ['/', 'Overview'],
      ['/entrypoints', 'Entrypoints'],
      ['/jobs', 'Jobs'],
      ['/jobs?state=scheduled', 'Jobs'],
      [`/jobs/${held[0]}`, `Job ${held[0]}`],
      ['/held', 'Held jobs'],
      ['/schedules', 'Schedules'],
      ['/scopes', 'Scope sets'],
    ]) {
      const page = await open(p)
      assert.equal(await page.locator('h1').textContent(), title, p)
      assert.equal(await page.locator('nav [aria-current="page"]').count(), 1, p)
      const unlabelled = await page.$$eval('input:not([type=hidden]), select', (els) =>
        els.filter((e) => !e.closest('label') && !e.getAttribute('aria-label')).map((e) => e.outerHTML),
      )
      assert.deepEqual(unlabelled, [], `${p}: controls without a label`)
    }
    const page = await open('/jobs?state=scheduled')
    assert.match((await page.locator('main table').textContent()) ?? '', /test_record/)
    // The first Tab reaches the skip link, which moves focus to the content.
    await page.keyboard.press('Tab')
    assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Skip to content')
    assert.deepEqual(consoleErrors, [])
  })

  it('requeues a held job through the held page and shows the change', async () => {
    const page = await open('/held')
    assert.match((await page.getByRole('table', { name: 'Held jobs', exact: true }).textContent()) ?? '', /upstream said 503/)
    await page.getByLabel(`Select job ${held[0]}`).check()
    await Promise.all([page.waitForURL(/\/held\?.*done=/), page.getByRole('button', { name: 'Requeue selected' }).click()])
    assert.match((await page.locator('.flash').textContent()) ?? '', new RegExp(`requeued 1 job\\(s\\): ${held[0]}$`))
    assert.equal(await page.getByLabel(`Select job ${held[0]}`).count(), 0, 'the requeued job left the held list')
    assert.equal(await page.getByLabel(`Select job ${held[1]}`).count(), 1, 'the other held job stayed')
    const story = await open(`/jobs/${held[0]}`)
    assert.equal(await story.locator('main .state').first().textContent(), 'queued')
    const { rows } = await db.pool.query('SELECT status::text FROM pgqueuer WHERE id = $1', [held[0]])
    assert.equal(rows[0].status, 'queued')
  })

  it('sees the completion of the requeued job arrive by server-sent events', async () => {
    const page = await open('/')
    await page.locator('#live-status', { hasText: /^live/ }).waitFor()
    assert.equal(await page.locator(`#completions li[data-job-id="${held[0]}"]`).count(), 0)
    const worker = spawnWorker(fastWorkerEnv(db.url), ['--entrypoint', 'test_noop'])
    workers.push(worker)
    const item = page.locator(`#completions li[data-job-id="${held[0]}"]`)
    await item.waitFor({ timeout: 60_000 })
    assert.match((await item.textContent()) ?? '', /test_noop successful/)
    // The page was not reloaded: the item came over the event stream.
    assert.equal(await page.evaluate('performance.getEntriesByType("navigation").length'), 1)
    assert.deepEqual(consoleErrors, [])
  })
})
