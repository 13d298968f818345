/** The dashboard's panes: each a pure function of the stats and how many rows it may show. */
import { Box, Text } from 'ink'
import { formatAge, formatBytes, formatCount, formatRate, formatRelative, sparkline, truncate } from '../format.js'
import type { StatusStats } from './status-stats.js'
import { describeGate } from '../../scope/memory-backlog.js'
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
        queued <Text bold>{formatCount(t.queued)}</Text> · picked <Text bold color="cyan">{formatCount(t.picked)}</Text> · held{' '}
        <Text bold color={t.held ? 'red' : undefined}>{formatCount(t.held)}</Text> · log{' '}
        {stats.log.rowsEstimate === null ? '' : `~${formatCount(stats.log.rowsEstimate)} rows `}
        {formatBytes(stats.log.bytes)}
        {stats.log.unlogged ? <Text color="yellow"> unlogged</Text> : null}
      </Text>
      <Text wrap="truncate-end">
        throughput <Text bold color="green">{formatRate(tp.perSecondNow)}</Text> · {formatCount(tp.lastMinute)}/min{' '}
        <Text color="green">{sparkline(tp.perMinute)}</Text> <Text dimColor>(last {tp.perMinute.length} min)</Text>
      </Text>
      {stats.paused.length ? <Text color="yellow" wrap="truncate-end">paused: {truncate(stats.paused.map(pausedText).join(', '), 110)}</Text> : null}
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

export function JobsPane({ stats, rows }: { stats: StatusStats; rows: number }) {
  const list = stats.entrypoints.slice(0, rows)
  const w = Math.min(34, Math.max(10, ...list.map((e) => e.entrypoint.length + (e.paused ? 2 : 0))))
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {fit('ENTRYPOINT', w)} {'PRIO'.padStart(6)} {'QUEUED'.padStart(10)} {'PICKED/LIM'.padStart(10)} {'HELD'.padStart(7)} {'OLDEST'.padStart(8)}{' '}
        {'RATE'.padStart(8)}
      </Text>
      {list.length === 0 ? <Text dimColor>(the queue is empty)</Text> : null}
      {list.map((e) => (
        <Text key={e.entrypoint} wrap="truncate-end">
          <Text color={e.paused ? 'yellow' : undefined}>{fit(e.paused ? `${e.entrypoint} ⏸` : e.entrypoint, w)}</Text> {e.priorities.join(',').padStart(6)} {formatCount(e.queued).padStart(10)}{' '}
          <Text color={e.concurrencyLimit && e.picked >= e.concurrencyLimit ? 'yellow' : undefined}>
            {limitText(e.picked, e.concurrencyLimit).padStart(10)}
          </Text>{' '}
          <Text color={e.held ? 'red' : undefined}>{formatCount(e.held).padStart(7)}</Text>{' '}
          {(e.queued ? formatAge(e.oldestQueuedAgeSeconds) : '-').padStart(8)} {formatRate(e.throughputPerSecond).padStart(8)}
        </Text>
      ))}
      {stats.entrypoints.length > list.length ? <Text dimColor>… {stats.entrypoints.length - list.length} more (tab to this pane)</Text> : null}
    </Box>
  )
}

export function HeldPane({ stats, rows, now }: { stats: StatusStats; rows: number; now: number }) {
  const list = stats.held.jobs.slice(0, rows)
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {'ID'.padStart(10)} {fit('ENTRYPOINT', 26)} {'CYC'.padStart(3)} {fit('HELD', 9)} LAST ERROR
      </Text>
      {list.length === 0 ? <Text dimColor>(no held jobs)</Text> : null}
      {list.map((h) => (
        <Text key={h.id} wrap="truncate-end">
          {h.id.padStart(10)} {fit(h.entrypoint, 26)} {String(h.cycles).padStart(3)} {fit(formatRelative(h.heldAt, now), 9)}{' '}
          <Text color="red">{truncate(h.lastError, 60)}</Text>
        </Text>
      ))}
      {stats.held.count > list.length ? <Text dimColor>… {formatCount(stats.held.count - list.length)} more held</Text> : null}
    </Box>
  )
}

export function WorkersPane({ stats, rows }: { stats: StatusStats; rows: number }) {
  const list = stats.workers.list.slice(0, rows)
  const foreign = stats.workers.foreign.slice(0, Math.max(0, rows - list.length))
  const stale = stats.stalePicks.jobs.slice(0, Math.max(0, rows - list.length - foreign.length))
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        {stats.workers.alive} alive of {stats.workers.total} · stale picks{' '}
        <Text color={stats.stalePicks.count ? 'red' : undefined}>{stats.stalePicks.count}</Text> · suspect picks{' '}
        <Text color={stats.suspectPicks.count ? 'yellow' : undefined}>{stats.suspectPicks.count}</Text>
      </Text>
      {list.map((w) => (
        <Text key={w.queueManagerId} wrap="truncate-end">
          <Text color={w.alive ? (w.stuckCalls > 0 ? 'yellow' : 'green') : 'red'}>{w.alive ? '●' : '○'}</Text> {w.queueManagerId.slice(0, 8)} {fit(w.host, 18)} pid{' '}
          {String(w.pid).padEnd(7)}{w.alive && w.stuckCalls > 0 ? ` STUCK ${w.stuckCalls}` : ''} picked {String(w.picked).padStart(4)} · beat {formatAge(w.heartbeatAgeSeconds)} ago · v{w.version}
        </Text>
      ))}
      {foreign.map((f) => (
        <Text key={f.queueManagerId} wrap="truncate-end">
          <Text color={f.suspect ? 'yellow' : 'cyan'}>◆</Text> {f.queueManagerId.slice(0, 8)} foreign (PgQueuer?){f.suspect ? ' SUSPECT' : ''} picked {String(f.picked).padStart(4)} · beat {formatAge(f.heartbeatAgeSeconds)} ago ·{' '}
          {fit(f.entrypoints.join(','), 30)}
        </Text>
      ))}
      {stale.map((j) => (
        <Text key={j.id} color="red" wrap="truncate-end">
          stale job {j.id} {j.entrypoint} (worker {j.queueManagerId?.slice(0, 8) ?? '?'}, beat {formatAge(j.ageSeconds)} ago)
        </Text>
      ))}
    </Box>
  )
}

export function SchedulesPane({ stats, rows, now }: { stats: StatusStats; rows: number; now: number }) {
  const list = stats.schedules.slice(0, rows)
  const w = Math.min(34, Math.max(10, ...list.map((s) => s.entrypoint.length)))
  return (
    <Box flexDirection="column">
      {list.length === 0 ? <Text dimColor>(no schedules)</Text> : null}
      {list.map((s) => (
        <Text key={`${s.entrypoint} ${s.expression}`} wrap="truncate-end">
          {fit(s.entrypoint, w)} {fit(s.expression, 14)} next {fit(formatRelative(s.nextRun, now), 12)} last {fit(formatRelative(s.lastRun, now), 12)}{' '}
          {s.enabled === false ? <Text dimColor>disabled</Text> : s.overdue && !s.foreign ? <Text color="red">OVERDUE</Text> : <Text dimColor>{s.overdue ? 'late' : s.status}</Text>}
          {s.foreign ? <Text dimColor> (foreign)</Text> : null}
        </Text>
      ))}
      {stats.schedules.length > list.length ? <Text dimColor>… {stats.schedules.length - list.length} more</Text> : null}
    </Box>
  )
}
