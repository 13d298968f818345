/**
 * The live view of one worker: header, rates and totals, in-flight jobs per entrypoint against
 * its limit, the latest picks and holds, the next cron fires. A pure function of a snapshot
 * (view-store.ts), so tests render it from a state and read the last frame.
 */
import { Box, Text } from 'ink'
import type { EntrypointRow, RecentHold, RecentPick, ScheduleRow, WorkerViewState } from './view-store.js'
import { fit, formatAgeMinutes, formatClock, formatCount, formatLimit, formatMs, formatSteadyRate, formatScopes, oneLine } from '../format.js'

const OUTCOME_COLOR: Record<RecentPick['outcome'], string> = {
  running: 'cyan',
  canceling: 'yellow',
  completed: 'green',
  retried: 'yellow',
  held: 'red',
  released: 'magenta',
  canceled: 'gray',
}

function Database({ db }: { db: WorkerViewState['db'] }) {
  if (db.state === 'ok') return <Text color="green">ok</Text>
  if (db.state === 'connecting') return <Text color="yellow">connecting</Text>
  return <Text color="red">lost since {formatClock(db.since)}</Text>
}

function Header({ state }: { state: WorkerViewState }) {
  const w = state.worker
  const phaseColor = state.phase === 'running' ? 'green' : state.phase === 'draining' || state.phase === 'waiting' ? 'yellow' : 'gray'
  const paused = state.entrypoints.filter((r) => r.paused).length
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>aizk worker</Text>
        {w ? ` ${w.queueManagerId.slice(0, 8)} · ${w.host} pid ${w.pid}` : ''} · <Text color={phaseColor}>{state.phase}</Text> · up{' '}
        {formatAgeMinutes(state.now - state.startedAt)} · db <Database db={state.db} />
      </Text>
      {state.phase === 'waiting' && state.db.lastError ? <Text color="yellow">{oneLine(state.db.lastError, 120)}</Text> : null}
      {w ? (
        <Text dimColor>
          batch {w.batchSize} · concurrency {w.concurrency} · in flight {state.inFlight} · {w.entrypoints.length} entrypoints
          {paused ? <Text color="yellow"> · {paused} paused</Text> : null}
        </Text>
      ) : null}
      {state.lastError ? (
        <Text color="red">
          last error ({state.lastError.where}, {formatClock(state.lastError.at)}): {oneLine(state.lastError.error, 100)}
        </Text>
      ) : null}
    </Box>
  )
}

function Throughput({ state }: { state: WorkerViewState }) {
  const { rates, totals } = state
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text>
        <Text bold>rate </Text> picked {formatSteadyRate(rates.picked)} · completed <Text color="green">{formatSteadyRate(rates.completed)}</Text> · failed{' '}
        <Text color={rates.failed > 0 ? 'yellow' : undefined}>{formatSteadyRate(rates.failed)}</Text>
      </Text>
      <Text>
        <Text bold>total</Text> picked {formatCount(totals.picked)} · completed {formatCount(totals.completed)} · retried{' '}
        {formatCount(totals.retried)} · held <Text color={totals.held ? 'red' : undefined}>{formatCount(totals.held)}</Text> · canceled{' '}
        {formatCount(totals.canceled)} · released{' '}
        {formatCount(totals.released)} · recovered {formatCount(totals.recovered)}
      </Text>
    </Box>
  )
}

function Entrypoints({ rows }: { rows: EntrypointRow[] }) {
  if (!rows.length) return null
  const width = Math.min(40, Math.max(10, ...rows.map((r) => r.entrypoint.length)))
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold>
        {fit('ENTRYPOINT', width)} {'IN FLIGHT'.padStart(10)} {'PICKED'.padStart(9)} {'DONE'.padStart(9)} {'RETRIED'.padStart(8)}{' '}
        {'HELD'.padStart(6)}
      </Text>
      {rows.map((r) => (
        <Text key={r.entrypoint} wrap="truncate-end">
          {fit(r.entrypoint, width)}{' '}
          <Text color={r.limit > 0 && r.inFlight >= r.limit ? 'yellow' : undefined}>{formatLimit(r.inFlight, r.limit).padStart(10)}</Text>{' '}
          {formatCount(r.picked).padStart(9)} {formatCount(r.completed).padStart(9)} {formatCount(r.retried).padStart(8)}{' '}
          <Text color={r.held ? 'red' : undefined}>{formatCount(r.held).padStart(6)}</Text>
          {r.paused ? <Text color="yellow"> paused</Text> : null}
        </Text>
      ))}
    </Box>
  )
}

function Picks({ picks }: { picks: RecentPick[] }) {
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold>latest picks</Text>
      {picks.length === 0 ? <Text dimColor> none yet</Text> : null}
      {picks.map((p) => (
        <Text key={`${p.jobId}-${p.at}`} wrap="truncate-end">
          {' '}
          <Text dimColor>{formatClock(p.at)}</Text> {fit(p.entrypoint, 28)} #{fit(p.jobId, 10)} p{String(p.priority).padEnd(3)} wait{' '}
          {formatMs(p.waitMs).padEnd(6)} <Text color={OUTCOME_COLOR[p.outcome]}>{fit(p.outcome, 9)}</Text> {formatMs(p.durationMs).padEnd(6)}{' '}
          <Text dimColor>{formatScopes(p.scopes)}</Text>
        </Text>
      ))}
    </Box>
  )
}

function Holds({ holds }: { holds: RecentHold[] }) {
  if (!holds.length) return null
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold color="red">
        latest holds
      </Text>
      {holds.map((h) => (
        <Box key={`${h.jobId}-${h.at}`} flexDirection="column">
          <Text wrap="truncate-end">
            {' '}
            <Text dimColor>{formatClock(h.at)}</Text> {fit(h.entrypoint, 28)} #{fit(h.jobId, 10)} attempt {h.attempts} after {formatMs(h.durationMs)}{' '}
            <Text dimColor>{formatScopes(h.scopes)}</Text>
          </Text>
          <Text color="red" wrap="truncate-end">
            {'   '}
            {oneLine(h.error, 200)}
          </Text>
        </Box>
      ))}
    </Box>
  )
}

function Schedules({ schedules, now }: { schedules: ScheduleRow[]; now: number }) {
  if (!schedules.length) return null
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold>next cron fires</Text>
      {schedules.map((s) => {
        const next = s.nextRun ? Date.parse(s.nextRun) : undefined
        return (
          <Text key={s.name} wrap="truncate-end">
            {' '}
            {fit(s.name, 24)} {next !== undefined ? `in ${formatAgeMinutes(next - now).padEnd(7)} ${s.nextRun}` : 'not scheduled'}
            {s.lastFiredAt ? <Text dimColor> · last fired {s.lastFiredAt}, {s.lastEnqueued ?? 0} enqueued</Text> : null}
          </Text>
        )
      })}
    </Box>
  )
}

export function WorkerView({ state }: { state: WorkerViewState }) {
  return (
    <Box flexDirection="column">
      <Header state={state} />
      <Throughput state={state} />
      <Entrypoints rows={state.entrypoints} />
      <Picks picks={state.picks} />
      <Holds holds={state.holds} />
      <Schedules schedules={state.schedules} now={state.now} />
    </Box>
  )
}
