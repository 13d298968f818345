/**
 * The live `aizk status` dashboard: a summary line, then four panes (jobs, held, workers,
 * schedules). The focused pane is outlined and shows more rows; tab / arrows move the focus.
 * A pure function of its props, so tests render it and read the last frame.
 */
import { Box, Text } from 'ink'
import { HeldPane, JobsPane, PANES, type PaneName, SchedulesPane, Summary, WorkersPane } from './panes.js'
import type { StatusStats } from './status-stats.js'

export interface DashboardProps {
  stats: StatusStats | null
  focus: PaneName
  error?: string | null
  now?: number
  /** Rows a pane shows when it has the focus / when it does not. */
  rows?: { focused: number; other: number }
}

const TITLES: Record<PaneName, string> = { jobs: 'Jobs', held: 'Held', workers: 'Workers', schedules: 'Schedules' }

export function StatusDashboard({ stats, focus, error, now = Date.now(), rows = { focused: 15, other: 5 } }: DashboardProps) {
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>aizk status</Text> <Text dimColor>· tab/←→ move · q quit</Text>
      </Text>
      {error ? <Text color="red">refresh failed: {error}</Text> : null}
      {stats === null ? (
        <Text dimColor>loading…</Text>
      ) : (
        <>
          <Summary stats={stats} />
          {PANES.map((pane) => {
            const focused = pane === focus
            const n = focused ? rows.focused : rows.other
            const count = countFor(stats, pane)
            return (
              <Box key={pane} flexDirection="column" borderStyle={focused ? 'round' : 'single'} borderColor={focused ? 'cyan' : 'gray'} paddingX={1}>
                <Text bold color={focused ? 'cyan' : undefined}>
                  {focused ? '▸ ' : '  '}
                  {TITLES[pane]} ({count})
                </Text>
                {pane === 'jobs' ? <JobsPane stats={stats} rows={n} /> : null}
                {pane === 'held' ? <HeldPane stats={stats} rows={n} now={now} /> : null}
                {pane === 'workers' ? <WorkersPane stats={stats} rows={n} /> : null}
                {pane === 'schedules' ? <SchedulesPane stats={stats} rows={n} now={now} /> : null}
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
