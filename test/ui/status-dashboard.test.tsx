import assert from 'node:assert/strict'
import { afterEach, describe, it } from 'node:test'
import { cleanup, render } from 'ink-testing-library'
import { StatusApp } from '../../src/ui/status/status-app.js'
import { StatusDashboard } from '../../src/ui/status/status-dashboard.js'
import { renderTextFrame } from '../../src/ui/status/text-frame.js'
import { now, statusStats as stats } from '../support/ui/status-stats.js'
import { waitFor } from '../support/wait-for.js'

// A view a failed assertion left mounted keeps drawing (and refreshing) until the file's timeout: unmount every one after each test.
afterEach(cleanup)

describe('status dashboard', () => {
  it('renders every pane from one snapshot', () => {
    const { lastFrame, unmount } = render(<StatusDashboard stats={stats()} focus="jobs" now={now} />)
    const frame = lastFrame() ?? ''
    unmount()
    assert.match(frame, /queued 1,500 · picked 4 · held 2 · log ~1,234,567 rows 300 MB/)
    assert.match(frame, /throughput 120\/s · 7,200\/min\s+\S*█/)
    assert.match(frame, /! 2 held job\(s\), over the threshold of 0/)
    assert.match(frame, /▸ Jobs \(2\)/)
    assert.match(frame, /aizk_build_graph_chunk\s+50\s+1,500\s+4\/4\s+0\s+1m15s\s+120\/s/)
    assert.match(frame, /901 aizk_convert_artifact\s+2 2m0?0?s ago\s+DoclingError: cannot open PDF/)
    assert.match(frame, /1 alive of 2 · stale picks 0/)
    assert.match(frame, /● aaaaaaaa node-1/)
    assert.match(frame, /○ bbbbbbbb node-2/)
    assert.match(frame, /aizk_cron_chunk_dispatch\s+\* \* \* \* \*\s+next in 30s/)
    assert.match(frame, /aizk_cron_backup .* disabled/)
  })

  it('shows loading, then a refresh error above the last good snapshot', () => {
    const { lastFrame, rerender, unmount } = render(<StatusDashboard stats={null} focus="jobs" now={now} />)
    assert.match(lastFrame() ?? '', /loading…/)
    rerender(<StatusDashboard stats={stats()} focus="held" error="connection terminated" now={now} />)
    const frame = lastFrame() ?? ''
    unmount()
    assert.match(frame, /refresh failed: connection terminated/)
    assert.match(frame, /▸ Held \(2\)/)
    assert.match(frame, /queued 1,500/)
  })

  it('the app refreshes, moves focus with tab and arrows, and leaves on q', async () => {
    let loads = 0
    const load = async () => {
      loads++
      return stats({ totals: { queued: loads, picked: 0, held: 2 } })
    }
    let left = false
    const app = render(
      <StatusApp
        load={load}
        intervalMs={20}
        onExit={() => {
          left = true
        }}
      />,
    )
    await waitFor('the frame', () => /queued [2-9]/.test(app.lastFrame() ?? ''))
    assert.match(app.lastFrame() ?? '', /▸ Jobs/)
    app.stdin.write('\t')
    await waitFor('the frame', () => /▸ Held/.test(app.lastFrame() ?? ''))
    app.stdin.write('\u001b[C') // right arrow
    await waitFor('the frame', () => /▸ Workers/.test(app.lastFrame() ?? ''))
    app.stdin.write('\u001b[D') // left arrow
    await waitFor('the frame', () => /▸ Held/.test(app.lastFrame() ?? ''))
    app.stdin.write('q')
    await waitFor('the frame', () => left)
    app.unmount()
  })

  it('counts every key of a burst written at once', async () => {
    const app = render(<StatusApp load={async () => stats()} intervalMs={1000} />)
    await waitFor('the frame', () => /▸ Jobs/.test(app.lastFrame() ?? '') && /queued 1,500/.test(app.lastFrame() ?? ''))
    // Three Tab presses in one write: jobs -> held -> workers -> schedules.
    app.stdin.write('\t\t\t')
    await waitFor('the frame', () => /▸ Schedules/.test(app.lastFrame() ?? ''))
    // Plain keys and escape sequences mixed in one write: tab wraps to jobs, right arrow to held.
    app.stdin.write('\t\u001b[C')
    await waitFor('the frame', () => /▸ Held/.test(app.lastFrame() ?? ''))
    // Two tabs and a left arrow in one write: workers, schedules, back to workers.
    app.stdin.write('\t\t\u001b[D')
    await waitFor('the frame', () => /▸ Workers/.test(app.lastFrame() ?? ''))
    // A burst ending in q leaves.
    let left = false
    app.rerender(
      <StatusApp
        load={async () => stats()}
        intervalMs={1000}
        onExit={() => {
          left = true
        }}
      />,
    )
    app.stdin.write('\tq')
    await waitFor('the frame', () => left)
    app.unmount()
  })

  it('the plain frame has the same panes and no escape codes', () => {
    const text = renderTextFrame(stats(), now)
    assert.ok(!text.includes('\u001b['))
    for (const heading of [
      'JOBS',
      'HELD (2, threshold 0)',
      'WORKERS (1 alive of 2; stale picks 0; suspect picks 0)',
      'SCHEDULES',
      'LOG pgqueuer_log: about 1,234,567 rows, 300 MB',
    ]) {
      assert.ok(text.includes(heading), heading)
    }
    assert.match(text, /health: UNHEALTHY\n {2}- 2 held job\(s\)/)
    assert.ok(!text.includes('paused'))
  })

  it('shows paused entrypoints in the frame and the dashboard', () => {
    const base = stats()
    const paused = stats({
      entrypoints: base.entrypoints.map((e, i) => ({ ...e, paused: i === 1 })),
      paused: [
        { entrypoint: 'aizk_convert_artifact', pausedAt: '2026-11-29T11:00:00.000Z', pausedBy: 'ops@node-1', reason: 'docling upgrade' },
        { entrypoint: 'py_send_mail', pausedAt: '2026-11-29T11:00:00.000Z', pausedBy: null, reason: null },
      ],
    })
    const text = renderTextFrame(paused, now)
    assert.match(text, /^paused: aizk_convert_artifact \(ops@node-1: docling upgrade\), py_send_mail$/m)
    assert.match(text, /aizk_convert_artifact \(paused\)\s+75/)
    assert.doesNotMatch(text, /aizk_build_graph_chunk \(paused\)/)
    const { lastFrame, unmount } = render(<StatusDashboard stats={paused} focus="jobs" now={now} />)
    const frame = lastFrame() ?? ''
    unmount()
    assert.match(frame, /paused: aizk_convert_artifact \(ops@node-1: docling upgrade\), py_send_mail/)
    assert.match(frame, /aizk_convert_artifact ⏸/)
  })

  it('shows a live worker whose heartbeat reports stuck handler statements as stuck, a gone one as gone', () => {
    const base = stats()
    const stuck = stats({ workers: { ...base.workers, list: base.workers.list.map((w) => ({ ...w, stuckCalls: 3, stuckSince: '2026-11-29T11:59:00.000Z' })) } })
    const text = renderTextFrame(stuck, now)
    assert.match(text, /aaaaaaaa\s+node-1\s+101\s+stuck \(3\)/)
    assert.match(text, /bbbbbbbb\s+node-2\s+202\s+gone/)
    const { lastFrame, unmount } = render(<StatusDashboard stats={stuck} focus="workers" now={now} />)
    const frame = lastFrame() ?? ''
    unmount()
    assert.match(frame, /● aaaaaaaa node-1\s+pid 101\s+STUCK 3 picked/)
    assert.doesNotMatch(frame, /bbbbbbbb.*STUCK/)
  })
})
