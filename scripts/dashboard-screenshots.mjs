#!/usr/bin/env node
// Screenshots of every dashboard page for docs/dashboard.md, taken in Debian's chromium
// (the one scripts/find-chromium.sh names) at a laptop's 1366x768. Serves
// `aizk dashboard` (dist/, so build first) on a free port against the database the AIZK_*
// settings name, and writes docs/images/dashboard-<page>.png. Usage:
//   AIZK_DATABASE_URL=postgres://... node scripts/dashboard-screenshots.mjs
import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const out = path.join(root, 'docs', 'images')
const found = spawnSync('bash', [path.join(root, 'scripts', 'find-chromium.sh')], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' })
if (found.status !== 0) process.exit(1)

const child = spawn(process.execPath, [path.join(root, 'bin', 'run.js'), 'dashboard', '--json', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] })
const url = await new Promise((resolve, reject) => {
  let buf = ''
  child.stdout.setEncoding('utf8').on('data', (c) => {
    buf += c
    const m = /"url":"([^"]+)"/.exec(buf)
    if (m) resolve(m[1])
  })
  child.once('close', (code) => reject(new Error(`aizk dashboard exited ${code}`)))
})

const profile = mkdtempSync(path.join(os.tmpdir(), 'aizk-shots-'))
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: found.stdout.trim(),
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  viewport: { width: 1366, height: 768 },
})
try {
  mkdirSync(out, { recursive: true })
  const page = browser.pages()[0] ?? (await browser.newPage())
  const shoot = async (name, p) => {
    await page.goto(new URL(p, url).toString())
    // Let a few pulses arrive so the charts and the live feed show what a watcher sees.
    await page.locator('#live-status', { hasText: /^live/ }).waitFor()
    await page.waitForTimeout(4000)
    const file = path.join(out, `dashboard-${name}.png`)
    await page.screenshot({ path: file })
    console.log(`wrote ${path.relative(root, file)}`)
  }
  await shoot('overview', '/')
  await shoot('entrypoints', '/entrypoints')
  await shoot('jobs', '/jobs')
  await page.goto(new URL('/held', url).toString())
  const firstHeld = await page.locator('main table tbody tr td a').first().textContent().catch(() => null)
  await shoot('held', '/held')
  const someJob = firstHeld ?? (await page.goto(new URL('/jobs', url).toString()), await page.locator('main table tbody tr td a').first().textContent())
  if (someJob) await shoot('job', `/jobs/${someJob.trim()}`)
  await shoot('schedules', '/schedules')
  await shoot('scopes', '/scopes')
} finally {
  await browser.close()
  rmSync(profile, { recursive: true, force: true })
  child.kill('SIGTERM')
}
