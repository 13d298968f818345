/**
 * One plain-text frame of `aizk status` (`--once`, and what a non-terminal gets): the same
 * panes as the live dashboard, as padded tables with no escape codes.
 */
import { formatAge, formatBytes, formatCount, formatRate, formatRelative, sparkline, truncate } from '../../operator/format.js'
import { renderTable } from '../../operator/table.js'
import { workerState } from '../../queue/stats-workers.js'
import { describeGate } from '../../scope/memory-backlog.js'
import type { StatusStats } from './status-stats.js'

export function limitText(inUse: number, limit: number | null): string {
  if (limit === null) return `${inUse}/?`
  return limit === 0 ? `${inUse}/∞` : `${inUse}/${limit}`
}

/** A paused entrypoint with who paused it and why. */
export function pausedText(p: StatusStats['paused'][number]): string {
  const extra = [p.pausedBy, p.reason].filter(Boolean).join(': ')
  return extra ? `${p.entrypoint} (${extra})` : p.entrypoint
}

export function headline(s: StatusStats): string {
  const t = s.totals
  return `queued ${formatCount(t.queued)} · picked ${formatCount(t.picked)} · held ${formatCount(t.held)} · ${formatRate(s.throughput.perSecondNow)} now · ${formatCount(s.throughput.lastMinute)} in the last minute`
}

export function renderTextFrame(s: StatusStats, now = Date.now()): string {
  const out: string[] = []
  out.push(`aizk status · ${s.generatedAt}`)
  out.push(headline(s))
  out.push(
    `throughput (jobs/min, last ${s.throughput.perMinute.length} min) ${sparkline(s.throughput.perMinute)} peak ${formatCount(Math.max(0, ...s.throughput.perMinute))}`,
  )
  if (s.paused.length) out.push(`paused: ${s.paused.map(pausedText).join(', ')}`)
  out.push(s.health.healthy ? 'health: ok' : `health: UNHEALTHY\n${s.health.problems.map((p) => `  - ${p.message}`).join('\n')}`)
  out.push('')
  out.push('JOBS')
  out.push(
    renderTable(
      s.entrypoints,
      [
        { header: 'ENTRYPOINT', get: (e) => (e.paused ? `${e.entrypoint} (paused)` : e.entrypoint) },
        { header: 'PRIO', get: (e) => e.priorities.join(','), align: 'right' },
        { header: 'QUEUED', get: (e) => formatCount(e.queued), align: 'right' },
        { header: 'PICKED/LIMIT', get: (e) => limitText(e.picked, e.concurrencyLimit), align: 'right' },
        { header: 'HELD', get: (e) => formatCount(e.held), align: 'right' },
        { header: 'OLDEST', get: (e) => (e.queued ? formatAge(e.oldestQueuedAgeSeconds) : '-'), align: 'right' },
        { header: 'RATE', get: (e) => formatRate(e.throughputPerSecond), align: 'right' },
      ],
      { empty: '(the queue is empty)' },
    ),
  )
  out.push('')
  out.push(`HELD (${formatCount(s.held.count)}, threshold ${s.held.threshold})`)
  out.push(
    renderTable(
      s.held.jobs,
      [
        { header: 'ID', get: (h) => h.id, align: 'right' },
        { header: 'ENTRYPOINT', get: (h) => h.entrypoint },
        { header: 'CYCLES', get: (h) => h.cycles, align: 'right' },
        { header: 'HELD', get: (h) => formatRelative(h.heldAt, now) },
        { header: 'LAST ERROR', get: (h) => truncate(h.lastError?.split('\n')[0], 70) },
      ],
      { empty: '(no held jobs)' },
    ),
  )
  out.push('')
  out.push(`WORKERS (${s.workers.alive} alive of ${s.workers.total}; stale picks ${s.stalePicks.count}; suspect picks ${s.suspectPicks.count})`)
  out.push(
    renderTable(
      s.workers.list,
      [
        { header: 'ID', get: (w) => w.queueManagerId.slice(0, 8) },
        { header: 'HOST', get: (w) => w.host },
        { header: 'PID', get: (w) => w.pid, align: 'right' },
        { header: 'STATE', get: (w) => workerState(w) },
        { header: 'PICKED', get: (w) => w.picked, align: 'right' },
        { header: 'HEARTBEAT', get: (w) => `${formatAge(w.heartbeatAgeSeconds)} ago` },
        { header: 'VERSION', get: (w) => w.version },
        { header: 'ENTRYPOINTS', get: (w) => truncate(w.entrypoints.join(','), 60) },
      ],
      { empty: '(no workers registered)' },
    ),
  )
  if (s.workers.foreign.length) {
    out.push(
      renderTable(s.workers.foreign, [
        { header: 'FOREIGN ID', get: (w) => w.queueManagerId.slice(0, 8) },
        { header: 'STATE', get: (w) => (w.suspect ? 'suspect' : 'alive') },
        { header: 'ENTRYPOINTS', get: (w) => truncate(w.entrypoints.join(','), 40) },
        { header: 'PICKED', get: (w) => w.picked, align: 'right' },
        { header: 'HEARTBEAT', get: (w) => `${formatAge(w.heartbeatAgeSeconds)} ago` },
      ]),
    )
  }
  for (const [title, picks] of [
    ['STALE ID', s.stalePicks.jobs],
    ['SUSPECT ID', s.suspectPicks.jobs],
  ] as const) {
    if (!picks.length) continue
    out.push(
      renderTable(picks, [
        { header: title, get: (j) => j.id, align: 'right' },
        { header: 'ENTRYPOINT', get: (j) => j.entrypoint },
        { header: 'WORKER', get: (j) => j.queueManagerId?.slice(0, 8) },
        { header: 'HEARTBEAT', get: (j) => `${formatAge(j.ageSeconds)} ago` },
      ]),
    )
  }
  out.push('')
  out.push('SCHEDULES')
  out.push(
    renderTable(
      s.schedules,
      [
        { header: 'ENTRYPOINT', get: (c) => c.entrypoint },
        { header: 'CRON', get: (c) => c.expression },
        { header: 'NEXT', get: (c) => formatRelative(c.nextRun, now) },
        { header: 'LAST', get: (c) => formatRelative(c.lastRun, now) },
        { header: 'STATE', get: (c) => (c.enabled === false ? 'disabled' : c.overdue ? (c.foreign ? 'late' : 'OVERDUE') : c.status) },
        { header: 'OWNER', get: (c) => (c.foreign ? 'foreign' : 'aizk') },
      ],
      { empty: '(no schedules)' },
    ),
  )
  out.push('')
  if (s.memory) {
    out.push(`MEMORY chunks pending projection ${formatCount(s.memory.chunksPendingProjection)} · dirty profiles ${formatCount(s.memory.dirtyProfiles)}`)
    out.push(s.memory.gates.length ? s.memory.gates.map((g) => `  gate ${describeGate(g)}`).join('\n') : '  gate: no growth-gated pass has run yet')
    out.push('')
  }
  out.push(
    `LOG pgqueuer_log${s.log.unlogged ? ' (unlogged: a server crash empties it)' : ''}: ${s.log.rowsEstimate === null ? 'rows not yet estimated (never analyzed)' : `about ${formatCount(s.log.rowsEstimate)} rows`}, ${formatBytes(s.log.bytes)}`,
  )
  return out.join('\n')
}
