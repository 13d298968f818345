/**
 * Held jobs in the terminal: `aizk status`'s panes scroll (↑↓ a row, PgUp/PgDn a page, Home/End,
 * j/k) inside a frame that fits 80x24, the workers pane lists the entrypoints each worker runs,
 * and `aizk jobs --state held` has an ERROR column cut to the terminal's width. Frames rendered
 * from snapshots first, then the real commands in a pseudo-terminal of 80x24.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { render } from 'ink-testing-library'
import { dashboardActions } from '../../src/ui/status/keys.js'
import { StatusApp } from '../../src/ui/status/status-app.js'
import { StatusDashboard } from '../../src/ui/status/status-dashboard.js'
import { renderTextFrame } from '../../src/ui/status/text-frame.js'
import { binPath, cleanEnv, repoRoot, runCli } from '../support/cli.js'
import { insertHeld } from '../support/commands/queue-rows.js'
import { createTestDatabase, type TestDatabase } from '../support/db.js'
import { lastFrameOf, runInPty, stripAnsi } from '../support/pty.js'
import { now, statusStats } from '../support/ui/status-stats.js'
import { waitFor } from '../support/wait-for.js'

const SMALL = { rows: 24, columns: 80 }

/** 40 held jobs, ids 1039 (newest) down to 1000, as readHeld orders them. */
function heldStats() {
  const base = statusStats()
  const jobs = Array.from({ length: 40 }, (_, i) => ({
    ...base.held.jobs[0],
    id: String(1039 - i),
    lastError: `UpstreamError: call number ${1039 - i} failed\n  at fetch (job.ts:12)`,
  }))
  const list = base.workers.list.map((w, i) => ({ ...w, entrypoints: i === 0 ? ['aizk_convert_artifact', 'aizk_build_graph_chunk'] : [] }))
  return statusStats({ held: { count: 45, threshold: 0, jobs }, totals: { queued: 1500, picked: 4, held: 45 }, workers: { ...base.workers, list } })
}

/** The ids of the held rows a frame shows, in order. */
function heldIds(frame: string): string[] {
  return [...frame.matchAll(/^\s*[│|]?\s*(10\d\d) aizk_convert_artifact/gm)].map((m) => m[1])
}

describe('the status panes scroll', () => {
  it('decodes the scroll keys, one per character of a burst', () => {
    assert.deepEqual(dashboardActions('jjk', {}), ['down', 'down', 'up'])
    assert.deepEqual(dashboardActions(' bgG', {}), ['pageDown', 'pageUp', 'top', 'bottom'])
    assert.deepEqual(dashboardActions('', { downArrow: true }), ['down'])
    assert.deepEqual(dashboardActions('', { upArrow: true }), ['up'])
    assert.deepEqual(dashboardActions('', { pageDown: true }), ['pageDown'])
    assert.deepEqual(dashboardActions('', { end: true }), ['bottom'])
    assert.deepEqual(dashboardActions('', { rightArrow: true }), ['next'])
  })

  it('shows the window of a pane from its offset at 80x24, clamped to the list, and says where it is', () => {
    const stats = heldStats()
    const top = render(<StatusDashboard stats={stats} focus="held" now={now} size={SMALL} />)
    const first = top.lastFrame() ?? ''
    top.unmount()
    const shown = heldIds(first)
    assert.ok(shown.length >= 5, first)
    assert.equal(shown[0], '1039')
    assert.match(first, new RegExp(`rows 1-${shown.length} of 40 \\(↑↓ PgUp PgDn\\) · 5 more: aizk jobs --state held`))
    for (const line of first.split('\n')) assert.ok([...line].length <= SMALL.columns, line)
    assert.ok(first.split('\n').length <= SMALL.rows - 1)

    const down = render(<StatusDashboard stats={stats} focus="held" now={now} size={SMALL} scroll={{ held: 7 }} />)
    assert.deepEqual(
      heldIds(down.lastFrame() ?? ''),
      shown.map((id) => String(Number(id) - 7)),
    )
    down.unmount()
    const past = render(<StatusDashboard stats={stats} focus="held" now={now} size={SMALL} scroll={{ held: 999 }} />)
    const last = heldIds(past.lastFrame() ?? '')
    past.unmount()
    assert.equal(last.at(-1), '1000', 'an offset past the end shows the last rows')
    assert.equal(last.length, shown.length)
  })

  it('the app scrolls the focused pane with the keys, and the workers pane lists what each worker runs', async () => {
    const app = render(<StatusApp load={async () => heldStats()} intervalMs={1000} initialFocus="held" />)
    const frame = () => app.lastFrame() ?? ''
    try {
      await waitFor('the held pane', () => /▸ Held \(45\)/.test(frame()) && heldIds(frame()).length > 0)
      assert.equal(heldIds(frame())[0], '1039')
      app.stdin.write('\u001b[B') // down arrow
      await waitFor('one row down', () => heldIds(frame())[0] === '1038', { detail: frame })
      app.stdin.write('jjk')
      await waitFor('two down, one up', () => heldIds(frame())[0] === '1037', { detail: frame })
      app.stdin.write('\u001b[6~') // PgDn: a page of the 15 rows the unsized pane shows
      await waitFor('a page down', () => heldIds(frame())[0] === '1022', { detail: frame })
      app.stdin.write('G')
      await waitFor('the end', () => heldIds(frame()).at(-1) === '1000' && /rows 26-40 of 40/.test(frame()), { detail: frame })
      app.stdin.write('\u001b[A') // up arrow from the end moves at once
      await waitFor('one up from the end', () => /rows 25-39 of 40/.test(frame()), { detail: frame })
      app.stdin.write('g')
      await waitFor('the top', () => heldIds(frame())[0] === '1039', { detail: frame })
      app.stdin.write('\t')
      await waitFor('the workers pane', () => /▸ Workers/.test(frame()), { detail: frame })
      assert.match(frame(), /runs aizk_convert_artifact, aizk_build_graph_chunk/)
      assert.match(frame(), /runs nothing/)
    } finally {
      app.unmount()
    }
  })

  it("the plain frame lists each worker's entrypoints and only the first line of an error", () => {
    const text = renderTextFrame(heldStats(), now)
    assert.match(text, /ENTRYPOINTS\n.*aizk_convert_artifact,aizk_build_graph_chunk/)
    assert.match(text, /UpstreamError: call number 1039 failed$/m)
    assert.doesNotMatch(text, /job\.ts:12/)
  })
})

describe('held jobs in a pseudo-terminal of 80x24', () => {
  let db: TestDatabase
  let ids: string[]
  before(async () => {
    db = await createTestDatabase()
    ids = []
    for (let i = 0; i < 30; i++) {
      const error = {
        type: 'UpstreamError',
        message: `call ${String(i).padStart(2, '0')} to the converter timed out after 30 seconds while it read a very long document\nsecond line`,
      }
      ids.push(...(await insertHeld(db.pool, 'app_held', 1, { lastError: error })))
    }
    await db.pool.query(
      `INSERT INTO aizk_worker (queue_manager_id, host, pid, version, entrypoints) VALUES (gen_random_uuid(), 'pty-host', 4242, '0.1.0', ARRAY['app_held', 'app_other'])`,
    )
  })
  after(async () => {
    await db.drop()
  })

  it("`aizk jobs --state held` shows each error's first line, cut to 80 columns; piped, the whole first line", async () => {
    const run = runInPty([process.execPath, binPath, 'jobs', '--state', 'held', '--limit', '5'], {
      cwd: repoRoot,
      env: cleanEnv({ AIZK_DATABASE_URL: db.url }),
      cols: 80,
      rows: 24,
    })
    assert.equal(await run.exited, 0, run.output())
    const lines = stripAnsi(run.output())
      .split('\n')
      .filter((l) => l.trim())
    assert.match(lines[0], /^\s*ID\s+STATE\s+ENTRYPOINT\s+PRIORITY\s+ATTEMPTS\s+AGE\s+ERROR$/)
    const rows = lines.filter((l) => /^\s*\d+\s+held\s+app_held/.test(l))
    assert.equal(rows.length, 5, run.output())
    for (const row of rows) {
      assert.equal([...row].length, 80, `the error fills the row to the terminal's width: ${row}`)
      assert.match(row, /UpstreamError: call \d\d to the c[^…]*…$/)
    }
    const piped = await runCli(['jobs', '--state', 'held', '--limit', '2'], { env: { AIZK_DATABASE_URL: db.url } })
    assert.equal(piped.code, 0, piped.stderr)
    assert.match(piped.stdout, /UpstreamError: call 00 to the converter timed out after 30 seconds while it read a very long document$/m)
    assert.doesNotMatch(piped.stdout, /second line/)
  })

  it("`aizk status` scrolls the held pane with the keys and shows the workers' entrypoints, never clearing the screen", async () => {
    const run = runInPty([process.execPath, binPath, 'status'], { cwd: repoRoot, env: cleanEnv({ AIZK_DATABASE_URL: db.url }), cols: 80, rows: 24 })
    const frame = () => lastFrameOf(run.output(), 'aizk status ·')
    const firstHeld = () => /^\s*│\s+(\d+) app_held/m.exec(frame())?.[1]
    try {
      await waitFor('a frame', () => frame().includes('held 30'), { detail: () => run.output() })
      run.child.stdin?.write('\t')
      await waitFor('the held pane open', () => /▸ Held \(30\)/.test(frame()) && firstHeld() !== undefined, { detail: () => frame() })
      assert.equal(firstHeld(), ids[29], 'the newest held job first')
      const window = /rows 1-(\d+) of 30/.exec(frame())
      assert.ok(window, frame())
      run.child.stdin?.write('\u001b[B')
      await waitFor('one row down', () => firstHeld() === ids[28], { detail: () => frame() })
      run.child.stdin?.write('\u001b[6~')
      await waitFor('a page down', () => firstHeld() === ids[28 - Number(window[1])], { detail: () => frame() })
      run.child.stdin?.write('\u001b[F') // End
      await waitFor('the end', () => /rows \d+-30 of 30/.test(frame()), { detail: () => frame() })
      run.child.stdin?.write('\t')
      await waitFor('the workers pane', () => /▸ Workers/.test(frame()), { detail: () => frame() })
      assert.match(frame(), /runs app_held, app_other/)
      for (const line of frame().split('\n')) assert.ok([...line].length <= 80, line)
      assert.ok(!run.output().includes('\u001b[2J'), 'ink cleared the screen: a frame was taller than the terminal')
    } finally {
      run.child.stdin?.write('q')
      const code = await Promise.race([run.exited, new Promise<number>((r) => setTimeout(() => r(-1), 10_000))])
      if (code === -1) run.child.kill('SIGKILL')
    }
  })
})
