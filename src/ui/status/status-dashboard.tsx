/**
 * The live `aizk status` dashboard: a summary line, then four panes (jobs, held, workers,
 * schedules). The focused pane is outlined and shows more rows; tab / ←→ move the focus and
 * ↑↓ / PgUp PgDn scroll it (each pane keeps its own offset, clamped to its list here).
 * On a terminal too short for every pane (80x24), the other panes shrink to their title line
 * and the focused one takes the rows left, so the header never scrolls off.
 * A pure function of its props, so tests render it and read the last frame.
 */
import { Box, Text } from 'ink'
import { frameBudget, type ScreenSize } from '../fit-height.js'
import { HeldPane, JobsPane, PANES, type PaneName, type PaneWindow, paneLength, SchedulesPane, Summary, summaryHeight, WorkersPane } from './panes.js'
import type { StatusStats } from './status-stats.js'

export interface DashboardProps {
  stats: StatusStats | null
  focus: PaneName
  error?: string | null
  now?: number
  /** Rows a pane shows when it has the focus / when it does not. */
  rows?: { focused: number; other: number }
  /** The terminal: the frame stays shorter than it. Unset: no limit. */
  size?: ScreenSize
  /** Each pane's first shown row (scrolling); clamped to its list. */
  scroll?: Partial<Record<PaneName, number>>
}

const DEFAULT_ROWS = { focused: 15, other: 5 }

/** A pane's lines beyond its rows: border (2), title, column header, the "… more" line. */
const PANE_FRAME = 5

/** How many rows each pane shows, or null for a pane shrunk to its title line. */
function paneRows(space: number, focus: PaneName, rows: { focused: number; other: number }): Record<PaneName, number | null> {
  const full = rows.focused + (PANES.length - 1) * rows.other + PANES.length * PANE_FRAME
  const out = {} as Record<PaneName, number | null>
  for (const pane of PANES) {
    if (space >= full) out[pane] = pane === focus ? rows.focused : rows.other
    else out[pane] = pane === focus ? Math.max(1, Math.min(rows.focused, space - (PANES.length - 1) - PANE_FRAME)) : null
  }
  return out
}

const TITLES: Record<PaneName, string> = { jobs: 'Jobs', held: 'Held', workers: 'Workers', schedules: 'Schedules' }

/** The window of each pane's list on screen (null: shrunk to its title line), offsets clamped. */
export function paneWindows(
  stats: StatusStats,
  opts: { focus: PaneName; error?: string | null; rows?: { focused: number; other: number }; size?: ScreenSize; scroll?: Partial<Record<PaneName, number>> },
): Record<PaneName, PaneWindow | null> {
  const head = 1 + (opts.error ? 1 : 0) + summaryHeight(stats)
  const shown = paneRows(frameBudget(opts.size) - head, opts.focus, opts.rows ?? DEFAULT_ROWS)
  const out = {} as Record<PaneName, PaneWindow | null>
  for (const pane of PANES) {
    const n = shown[pane]
    out[pane] = n === null ? null : { rows: n, offset: Math.max(0, Math.min(opts.scroll?.[pane] ?? 0, paneLength(stats, pane) - n)) }
  }
  return out
}

export function StatusDashboard({ stats, focus, error, now = Date.now(), rows = DEFAULT_ROWS, size, scroll }: DashboardProps) {
  const windows = stats ? paneWindows(stats, { focus, error, rows, size, scroll }) : null
  return (
    <Box flexDirection="column" width={size?.columns}>
      <Text wrap="truncate-end">
        <Text bold>aizk status</Text> <Text dimColor>· tab/←→ pane · ↑↓ PgUp/PgDn scroll · q quit</Text>
      </Text>
      {error ? (
        <Text color="red" wrap="truncate-end">
          refresh failed: {error}
        </Text>
      ) : null}
      {stats === null || windows === null ? (
        <Text dimColor>loading…</Text>
      ) : (
        <>
          <Summary stats={stats} />
          {PANES.map((pane) => {
            const focused = pane === focus
            const win = windows[pane]
            const count = countFor(stats, pane)
            if (win === null) {
              return (
                <Text key={pane} dimColor wrap="truncate-end">
                  {'  '}
                  {TITLES[pane]} ({count}) · tab to open
                </Text>
              )
            }
            return (
              <Box key={pane} flexDirection="column" borderStyle={focused ? 'round' : 'single'} borderColor={focused ? 'cyan' : 'gray'} paddingX={1}>
                <Text bold color={focused ? 'cyan' : undefined}>
                  {focused ? '▸ ' : '  '}
                  {TITLES[pane]} ({count})
                </Text>
                {pane === 'jobs' ? <JobsPane stats={stats} win={win} focused={focused} /> : null}
                {pane === 'held' ? <HeldPane stats={stats} win={win} focused={focused} now={now} /> : null}
                {pane === 'workers' ? <WorkersPane stats={stats} win={win} focused={focused} /> : null}
                {pane === 'schedules' ? <SchedulesPane stats={stats} win={win} focused={focused} now={now} /> : null}
              </Box>
            )
          })}
        </>
      )}
    </Box>
  )
}

function countFor(stats: StatusStats, pane: PaneName): number {
  if (pane === 'jobs') return stats.entrypoints.length
  if (pane === 'held') return stats.held.count
  if (pane === 'workers') return stats.workers.total
  return stats.schedules.length
}

export function nextPane(current: PaneName, step: 1 | -1): PaneName {
  const i = PANES.indexOf(current)
  return PANES[(i + step + PANES.length) % PANES.length]
}
