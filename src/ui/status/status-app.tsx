/**
 * The dashboard's container: loads stats every `intervalMs`, keeps the last good snapshot on a
 * failed refresh (and shows the error), and handles keys (keys.ts): tab / → next pane,
 * shift-tab / ← previous, ↑↓ a row and PgUp/PgDn a page within the focused pane, Home/End to its
 * ends, q or Esc to leave; a burst of keys in one read acts once per key.
 */
import { useApp, useInput, useStdout } from 'ink'
import { useEffect, useRef, useState } from 'react'
import type { ScreenSize } from '../fit-height.js'
import { dashboardActions } from './keys.js'
import type { PaneName } from './panes.js'
import { nextPane, paneWindows, StatusDashboard } from './status-dashboard.js'
import type { StatusStats } from './status-stats.js'

export interface StatusAppProps {
  load: () => Promise<StatusStats>
  intervalMs?: number
  initialFocus?: PaneName
  /** Called when the operator leaves (q, Esc, ctrl-c), before the app unmounts. */
  onExit?: () => void
}

export function StatusApp({ load, intervalMs = 1000, initialFocus = 'jobs', onExit }: StatusAppProps) {
  const { exit } = useApp()
  const [stats, setStats] = useState<StatusStats | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [focus, setFocus] = useState<PaneName>(initialFocus)
  const [scroll, setScroll] = useState<Partial<Record<PaneName, number>>>({})
  // ink may call the input handler twice before a render (a key burst split into sequences):
  // the refs carry each call's result to the next.
  const focusRef = useRef(focus)
  const scrollRef = useRef(scroll)
  const statsRef = useRef(stats)
  statsRef.current = stats
  const [now, setNow] = useState(Date.now())
  const { stdout } = useStdout()
  const [size, setSize] = useState(() => screenSize(stdout))

  useEffect(() => {
    const resized = () => setSize(screenSize(stdout))
    stdout.on('resize', resized)
    return () => {
      stdout.off('resize', resized)
    }
  }, [stdout])

  useEffect(() => {
    let stopped = false
    let timer: NodeJS.Timeout | undefined
    const tick = async () => {
      try {
        const next = await load()
        if (stopped) return
        setStats(next)
        setError(null)
      } catch (err) {
        if (!stopped) setError((err as Error).message)
      }
      if (!stopped) {
        setNow(Date.now())
        timer = setTimeout(tick, intervalMs)
      }
    }
    void tick()
    return () => {
      stopped = true
      if (timer) clearTimeout(timer)
    }
  }, [load, intervalMs])

  useInput((input, key) => {
    let pane = focusRef.current
    let offsets = scrollRef.current
    const current = statsRef.current
    for (const action of dashboardActions(input, key)) {
      if (action === 'quit') {
        onExit?.()
        exit()
        return
      }
      if (action === 'next' || action === 'previous') {
        pane = nextPane(pane, action === 'next' ? 1 : -1)
        continue
      }
      // Scroll from the offset on screen (clamped), so a key never spends itself past the end.
      const win = current ? paneWindows(current, { focus: pane, error, size, scroll: offsets })[pane] : null
      if (!win) continue
      const step = { up: -1, down: 1, pageUp: -win.rows, pageDown: win.rows, top: -Infinity, bottom: Infinity }[action]
      const wanted = win.offset + step
      offsets = { ...offsets, [pane]: Number.isFinite(wanted) ? Math.max(0, wanted) : wanted > 0 ? Number.MAX_SAFE_INTEGER : 0 }
    }
    focusRef.current = pane
    scrollRef.current = offsets
    setFocus(pane)
    setScroll(offsets)
  })

  return <StatusDashboard stats={stats} focus={focus} error={error} now={now} size={size} scroll={scroll} />
}

/** The terminal's size; none when stdout is not a terminal (no rows to fit). */
function screenSize(stdout: NodeJS.WriteStream): ScreenSize | undefined {
  return stdout.isTTY && stdout.rows > 0 ? { rows: stdout.rows, columns: stdout.columns || 80 } : undefined
}
