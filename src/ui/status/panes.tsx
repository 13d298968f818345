/**
 * The dashboard's panes: each a pure function of the stats and the window of its list it shows
 * (how many rows, from which offset), with a footer saying where that window is.
 */
import { Box, Text } from 'ink'
import type { ReactNode } from 'react'
import { formatAge, formatBytes, formatCount, formatRate, formatRelative, sparkline, truncate } from '../../operator/format.js'
import { describeGate } from '../../scope/memory-backlog.js'
import type { StatusStats } from './status-stats.js'
import { limitText, pausedText } from './text-frame.js'

export const PANES = ['jobs', 'held', 'workers', 'schedules'] as const
export type PaneName = (typeof PANES)[number]

function fit(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width)
}

export function Summary({ stats }: { stats: StatusStats }) {
  const t = stats.totals
  const tp = stats.throughput
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        queued <Text bold>{formatCount(t.queued)}</Text> · picked{' '}
        <Text bold color="cyan">
          {formatCount(t.picked)}
        </Text>{' '}
        · held{' '}
        <Text bold color={t.held ? 'red' : undefined}>
          {formatCount(t.held)}
        </Text>{' '}
        · log {stats.log.rowsEstimate === null ? '' : `~${formatCount(stats.log.rowsEstimate)} rows `}
        {formatBytes(stats.log.bytes)}
        {stats.log.unlogged ? <Text color="yellow"> unlogged</Text> : null}
      </Text>
      <Text wrap="truncate-end">
        throughput{' '}
        <Text bold color="green">
          {formatRate(tp.perSecondNow)}
        </Text>{' '}
        · {formatCount(tp.lastMinute)}/min <Text color="green">{sparkline(tp.perMinute)}</Text> <Text dimColor>(last {tp.perMinute.length} min)</Text>
      </Text>
      {stats.paused.length ? (
        <Text color="yellow" wrap="truncate-end">
          paused: {truncate(stats.paused.map(pausedText).join(', '), 110)}
        </Text>
      ) : null}
      {stats.health.healthy ? (
        <Text color="green">healthy</Text>
      ) : (
        stats.health.problems.map((p) => (
          <Text key={p.code + p.message} color="red" wrap="truncate-end">
            ! {truncate(p.message, 110)}
          </Text>
        ))
      )}
      {stats.memory ? (
        <Text wrap="truncate-end">
          memory: {formatCount(stats.memory.chunksPendingProjection)} chunks pending projection · {formatCount(stats.memory.dirtyProfiles)} dirty profiles
          {stats.memory.gates.map((g) => ` · ${truncate(describeGate(g), 110)}`).join('')}
        </Text>
      ) : null}
      <Text dimColor>updated {stats.generatedAt.slice(11, 19)} UTC</Text>
    </Box>
  )
}

/** Lines Summary draws for these stats (each is one line: they never wrap). */
export function summaryHeight(stats: StatusStats): number {
  const health = stats.health.healthy ? 1 : stats.health.problems.length
  return 3 + (stats.paused.length ? 1 : 0) + health + (stats.memory ? 1 : 0)
}

/** Which rows of a pane's list are on screen: from `offset`, at most `rows`. */
export interface PaneWindow {
  rows: number
  offset: number
}

/** Rows each pane's list has (what scrolling walks over). */
export function paneLength(stats: StatusStats, pane: PaneName): number {
  if (pane === 'jobs') return stats.entrypoints.length
  if (pane === 'held') return stats.held.jobs.length
  if (pane === 'workers') return workerLines(stats).length
  return stats.schedules.length
}

/**
 * The line under a pane's rows: where the window is when the list is longer than it ("rows 11-20
 * of 40 (↑↓ PgUp PgDn)" on the focused pane, "… 30 more (tab to this pane)" on another), and what
 * the list itself leaves out (`beyond`).
 */
function Footer({ total, win, focused, beyond }: { total: number; win: PaneWindow; focused: boolean; beyond?: string | null }) {
  const shown = Math.min(win.rows, Math.max(0, total - win.offset))
  const parts: string[] = []
  if (total > shown) {
    parts.push(
      focused
        ? `rows ${win.offset + 1}-${win.offset + shown} of ${formatCount(total)} (↑↓ PgUp PgDn)`
        : `… ${formatCount(total - shown)} more (tab to this pane)`,
    )
  }
  if (beyond) parts.push(beyond)
  return parts.length ? (
    <Text dimColor wrap="truncate-end">
      {parts.join(' · ')}
    </Text>
  ) : null
}

export function JobsPane({ stats, win, focused }: { stats: StatusStats; win: PaneWindow; focused: boolean }) {
  const list = stats.entrypoints.slice(win.offset, win.offset + win.rows)
  const w = Math.min(34, Math.max(10, ...list.map((e) => e.entrypoint.length + (e.paused ? 2 : 0))))
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {fit('ENTRYPOINT', w)} {'PRIO'.padStart(6)} {'QUEUED'.padStart(10)} {'PICKED/LIM'.padStart(10)} {'HELD'.padStart(7)} {'OLDEST'.padStart(8)}{' '}
        {'RATE'.padStart(8)}
      </Text>
      {stats.entrypoints.length === 0 ? <Text dimColor>(the queue is empty)</Text> : null}
      {list.map((e) => (
        <Text key={e.entrypoint} wrap="truncate-end">
          <Text color={e.paused ? 'yellow' : undefined}>{fit(e.paused ? `${e.entrypoint} ⏸` : e.entrypoint, w)}</Text> {e.priorities.join(',').padStart(6)}{' '}
          {formatCount(e.queued).padStart(10)}{' '}
          <Text color={e.concurrencyLimit && e.picked >= e.concurrencyLimit ? 'yellow' : undefined}>
            {limitText(e.picked, e.concurrencyLimit).padStart(10)}
          </Text>{' '}
          <Text color={e.held ? 'red' : undefined}>{formatCount(e.held).padStart(7)}</Text> {(e.queued ? formatAge(e.oldestQueuedAgeSeconds) : '-').padStart(8)}{' '}
          {formatRate(e.throughputPerSecond).padStart(8)}
        </Text>
      ))}
      <Footer total={stats.entrypoints.length} win={win} focused={focused} />
    </Box>
  )
}

export function HeldPane({ stats, win, focused, now }: { stats: StatusStats; win: PaneWindow; focused: boolean; now: number }) {
  const list = stats.held.jobs.slice(win.offset, win.offset + win.rows)
  const notLoaded = stats.held.count - stats.held.jobs.length
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {'ID'.padStart(10)} {fit('ENTRYPOINT', 26)} {'CYC'.padStart(3)} {fit('HELD', 9)} LAST ERROR
      </Text>
      {stats.held.jobs.length === 0 ? <Text dimColor>(no held jobs)</Text> : null}
      {list.map((h) => (
        <Text key={h.id} wrap="truncate-end">
          {h.id.padStart(10)} {fit(h.entrypoint, 26)} {String(h.cycles).padStart(3)} {fit(formatRelative(h.heldAt, now), 9)}{' '}
          <Text color="red">{truncate(h.lastError?.split('\n')[0], 110)}</Text>
        </Text>
      ))}
      <Footer
        total={stats.held.jobs.length}
        win={win}
        focused={focused}
        beyond={notLoaded > 0 ? `${formatCount(notLoaded)} more: aizk jobs --state held` : null}
      />
    </Box>
  )
}

/** The workers pane's lines: each aizk worker and the entrypoints it runs, foreign queue managers, stale picks. */
function workerLines(stats: StatusStats): { key: string; line: ReactNode }[] {
  const out: { key: string; line: ReactNode }[] = []
  for (const w of stats.workers.list) {
    out.push({
      key: w.queueManagerId,
      line: (
        <>
          <Text color={w.alive ? (w.stuckCalls > 0 ? 'yellow' : 'green') : 'red'}>{w.alive ? '●' : '○'}</Text> {w.queueManagerId.slice(0, 8)} {fit(w.host, 18)}{' '}
          pid {String(w.pid).padEnd(7)}
          {w.alive && w.stuckCalls > 0 ? ` STUCK ${w.stuckCalls}` : ''} picked {String(w.picked).padStart(4)} · beat {formatAge(w.heartbeatAgeSeconds)} ago · v
          {w.version}
        </>
      ),
    })
    out.push({ key: `${w.queueManagerId} runs`, line: <Text dimColor>{`    runs ${w.entrypoints.length ? w.entrypoints.join(', ') : 'nothing'}`}</Text> })
  }
  for (const f of stats.workers.foreign) {
    out.push({
      key: f.queueManagerId,
      line: (
        <>
          <Text color={f.suspect ? 'yellow' : 'cyan'}>◆</Text> {f.queueManagerId.slice(0, 8)} foreign (PgQueuer?){f.suspect ? ' SUSPECT' : ''} picked{' '}
          {String(f.picked).padStart(4)} · beat {formatAge(f.heartbeatAgeSeconds)} ago · runs {f.entrypoints.join(', ')}
        </>
      ),
    })
  }
  for (const j of stats.stalePicks.jobs) {
    out.push({
      key: `stale ${j.id}`,
      line: (
        <Text color="red">
          stale job {j.id} {j.entrypoint} (worker {j.queueManagerId?.slice(0, 8) ?? '?'}, beat {formatAge(j.ageSeconds)} ago)
        </Text>
      ),
    })
  }
  return out
}

export function WorkersPane({ stats, win, focused }: { stats: StatusStats; win: PaneWindow; focused: boolean }) {
  const lines = workerLines(stats)
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        {stats.workers.alive} alive of {stats.workers.total} · stale picks{' '}
        <Text color={stats.stalePicks.count ? 'red' : undefined}>{stats.stalePicks.count}</Text> · suspect picks{' '}
        <Text color={stats.suspectPicks.count ? 'yellow' : undefined}>{stats.suspectPicks.count}</Text>
      </Text>
      {lines.slice(win.offset, win.offset + win.rows).map((l) => (
        <Text key={l.key} wrap="truncate-end">
          {l.line}
        </Text>
      ))}
      <Footer total={lines.length} win={win} focused={focused} />
    </Box>
  )
}

export function SchedulesPane({ stats, win, focused, now }: { stats: StatusStats; win: PaneWindow; focused: boolean; now: number }) {
  const list = stats.schedules.slice(win.offset, win.offset + win.rows)
  const w = Math.min(34, Math.max(10, ...list.map((s) => s.entrypoint.length)))
  return (
    <Box flexDirection="column">
      {stats.schedules.length === 0 ? <Text dimColor>(no schedules)</Text> : null}
      {list.map((s) => (
        <Text key={`${s.entrypoint} ${s.expression}`} wrap="truncate-end">
          {fit(s.entrypoint, w)} {fit(s.expression, 14)} next {fit(formatRelative(s.nextRun, now), 12)} last {fit(formatRelative(s.lastRun, now), 12)}{' '}
          {s.enabled === false ? (
            <Text dimColor>disabled</Text>
          ) : s.overdue && !s.foreign ? (
            <Text color="red">OVERDUE</Text>
          ) : (
            <Text dimColor>{s.overdue ? 'late' : s.status}</Text>
          )}
          {s.foreign ? <Text dimColor> (foreign)</Text> : null}
        </Text>
      ))}
      <Footer total={stats.schedules.length} win={win} focused={focused} />
    </Box>
  )
}
