/**
 * At 80x24 the headers stay on screen: ink redraws in place only while a frame is shorter than
 * the terminal (taller, it clears the screen and the top scrolls off), so on a small terminal
 * the status dashboard and the worker view must draw at most 23 lines of at most 80 columns,
 * their header first. Checked on frames rendered from busy snapshots, then on the real
 * `aizk status` in a pseudo-terminal of 80x24, which must never have to clear the screen.
 */
import assert from 'node:assert/strict'
import { after, afterEach, before, describe, it } from 'node:test'
import { cleanup, render } from 'ink-testing-library'
import { WorkerEvents } from '../../src/events.js'
import { PANES } from '../../src/ui/status/panes.js'
import { StatusDashboard } from '../../src/ui/status/status-dashboard.js'
import { WorkerViewStore } from '../../src/ui/worker/view-store.js'
import { WorkerView } from '../../src/ui/worker/worker-view.js'
import { binPath, cleanEnv, repoRoot } from '../support/cli.js'
import { insertHeld, insertQueued } from '../support/commands/queue-rows.js'
import { createTestDatabase, type TestDatabase } from '../support/db.js'
import { lastFrameOf, runInPty } from '../support/pty.js'
import { now, statusStats } from '../support/ui/status-stats.js'
import { waitFor } from '../support/wait-for.js'

// A view a failed assertion left mounted keeps drawing (and refreshing) until the file's timeout: unmount every one after each test.
afterEach(cleanup)

const SMALL = { rows: 24, columns: 80 }

function busyStats() {
  const base = statusStats()
  const entrypoints = Array.from({ length: 30 }, (_, i) => ({ ...base.entrypoints[0], entrypoint: `app_entrypoint_with_a_long_name_${i}` }))
  const heldJobs = Array.from({ length: 20 }, (_, i) => ({
    ...base.held.jobs[0],
    id: String(1000 + i),
    lastError: `DoclingError: cannot open PDF number ${i} because its cross-reference table is damaged beyond repair`,
  }))
  const schedules = Array.from({ length: 14 }, (_, i) => ({ ...base.schedules[0], entrypoint: `aizk_cron_pass_${i}` }))
  return statusStats({
    entrypoints,
    held: { count: 20, threshold: 0, jobs: heldJobs },
    schedules,
    health: {
      healthy: false,
      problems: [
        {
          code: 'held_over_threshold',
          message: '20 held job(s), over the threshold of 0 (see `aizk requeue --dry-run`), and this line is far wider than eighty columns',
        },
        { code: 'stale_picks', message: '3 picked job(s) have a heartbeat older than 30s' },
      ],
    },
  })
}

function assertFits(frame: string, header: RegExp, what: string) {
  const lines = frame.split('\n')
  assert.ok(lines.length <= SMALL.rows - 1, `${what}: ${lines.length} lines on a terminal of ${SMALL.rows}\n${frame}`)
  assert.match(lines[0], header, `${what}: the header is the first line`)
  for (const line of lines) assert.ok([...line].length <= SMALL.columns, `${what}: a line of ${[...line].length} columns: ${line}`)
}

describe('views at 80x24', () => {
  it('the status dashboard keeps its header and the focused pane, whichever pane has the focus', () => {
    const stats = busyStats()
    const unsized = render(<StatusDashboard stats={stats} focus="jobs" now={now} />)
    assert.ok((unsized.lastFrame() ?? '').split('\n').length > SMALL.rows, 'the snapshot is taller than the terminal when nothing fits it')
    unsized.unmount()
    for (const focus of PANES) {
      const { lastFrame, unmount } = render(<StatusDashboard stats={stats} focus={focus} now={now} size={SMALL} />)
      const frame = lastFrame() ?? ''
      unmount()
      assertFits(frame, /^aizk status · tab/, `focus ${focus}`)
      assert.match(frame, /queued 1,500 · picked 4 · held 2/)
      assert.match(frame, new RegExp(`▸ ${focus[0].toUpperCase()}${focus.slice(1)} \\(`), `the ${focus} pane is open`)
      for (const other of PANES.filter((p) => p !== focus))
        assert.match(frame, new RegExp(`^  ${other[0].toUpperCase()}${other.slice(1)} \\(\\d+\\) · tab to open$`, 'm'))
    }
    const jobs = render(<StatusDashboard stats={stats} focus="jobs" now={now} size={SMALL} />)
    assert.match(jobs.lastFrame() ?? '', /rows 1-\d+ of 30 \(↑↓ PgUp PgDn\)/, 'the cut list says which rows it shows and how to scroll')
    jobs.unmount()
  })

  it('the worker view keeps its header and shares the rows among entrypoints, picks, holds and schedules', () => {
    let clock = Date.parse('2026-11-29T12:00:00.000Z')
    const events = new WorkerEvents()
    const store = new WorkerViewStore({ limitOf: () => 4, now: () => clock, keepPicks: 10, keepHolds: 3 })
    const detach = store.attach(events)
    const entrypoints = Array.from({ length: 17 }, (_, i) => `aizk_entrypoint_${i}`)
    events.emit('worker:started', {
      queueManagerId: 'a7c1f0e2-1111-4000-8000-000000000001',
      entrypoints,
      batchSize: 64,
      concurrency: 256,
      localQueueSize: 0,
      pid: 4242,
      host: 'a-host-name-that-is-rather-long.example.internal',
    })
    store.snapshot()
    for (let i = 0; i < 14; i++) events.emit('schedule:next', { name: `pass_${i}`, cronEntrypoint: `aizk_cron_pass_${i}`, nextRun: '2026-11-29T12:05:00.000Z' })
    for (let i = 0; i < 12; i++) events.emit('job:picked', { jobId: String(100 + i), entrypoint: entrypoints[i], priority: 50, attempts: 0, waitMs: 3 })
    for (let i = 0; i < 3; i++)
      events.emit('job:held', {
        jobId: String(100 + i),
        entrypoint: entrypoints[i],
        attempts: 5,
        error: 'RuntimeError: a long error '.repeat(8),
        durationMs: 10,
      })
    const embeddedNote =
      'aizk: started embedded PostgreSQL 15.18.0 in /home/someone/.local/share/aizk on 127.0.0.1:54329; it keeps running for every aizk process until `aizk server stop`'
    store.note(embeddedNote)
    clock += 2000
    const state = store.snapshot()
    detach()
    const unsized = render(<WorkerView state={state} />)
    assert.ok((unsized.lastFrame() ?? '').split('\n').length > SMALL.rows, 'the state is taller than the terminal when nothing fits it')
    unsized.unmount()
    const { lastFrame, unmount } = render(<WorkerView state={state} size={SMALL} />)
    const frame = lastFrame() ?? ''
    unmount()
    // The embedded server's note heads the view (cut at the width), the header under it.
    assertFits(frame, /^aizk: started embedded PostgreSQL 15\.18\.0 in \/home\/someone/, 'worker view')
    assert.match(frame.split('\n')[1], /^aizk worker a7c1f0e2 · a-host-name/)
    for (const section of ['ENTRYPOINT', 'latest picks', 'latest holds', 'next cron fires'])
      assert.match(frame, new RegExp(section), `${section} keeps a place`)
    assert.match(frame, /… \d+ more entrypoints/)
    assert.match(frame, /… \d+ more schedules/)
  })
})

describe('aizk status in a pseudo-terminal of 80x24', () => {
  let db: TestDatabase
  before(async () => {
    db = await createTestDatabase()
    for (let i = 0; i < 25; i++) await insertQueued(db.pool, `app_entrypoint_${String(i).padStart(2, '0')}`, 2)
    await insertHeld(db.pool, 'app_held', 20, {
      lastError: { type: 'DoclingError', message: 'cannot open PDF: its cross-reference table is damaged beyond repair' },
    })
  })
  after(async () => {
    await db.drop()
  })

  it('draws in place with its header on screen: the terminal is never cleared', async () => {
    const run = runInPty([process.execPath, binPath, 'status'], { cwd: repoRoot, env: cleanEnv({ AIZK_DATABASE_URL: db.url }), cols: 80, rows: 24 })
    try {
      const frame = await waitFor(
        'a frame with the jobs pane',
        () => {
          const f = lastFrameOf(run.output(), 'aizk status ·')
          return f.includes('app_entrypoint_') ? f : null
        },
        { detail: () => run.output() },
      )
      assert.match(frame, /queued 50 · picked 0 · held 20/)
      if (process.env.SHOW_FRAME) console.log(frame)
      // Wait for a later refresh (its clock line changes), then look at everything drawn so far.
      await waitFor('a later refresh', () => new Set(run.output().match(/updated \d\d:\d\d:\d\d/g)).size >= 3, { detail: () => run.output() })
      assert.ok(!run.output().includes('\u001b[2J'), 'ink cleared the screen: a frame was taller than the terminal')
    } finally {
      run.child.stdin?.write('q')
      const code = await Promise.race([run.exited, new Promise<number>((r) => setTimeout(() => r(-1), 10_000))])
      if (code === -1) run.child.kill('SIGKILL')
    }
  })
})
