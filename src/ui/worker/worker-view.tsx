/**
 * The live view of one worker: header, rates and totals, in-flight jobs per entrypoint against
 * its limit, the latest picks and holds, the next cron fires. A pure function of a snapshot
 * (view-store.ts), so tests render it from a state and read the last frame. Given the terminal's
 * size, every line is cut at its width and the lists share the rows under the header, so the
 * header stays on screen at 80x24.
 */
import { Box, Text } from 'ink'
import { fit, formatAgeMinutes, formatClock, formatCount, formatLimit, formatMs, formatScopes, formatSteadyRate, oneLine } from '../../operator/format.js'
import { frameBudget, type ScreenSize, shareRows } from '../fit-height.js'
import type { EntrypointRow, RecentHold, RecentPick, ScheduleRow, WorkerViewState } from './view-store.js'

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
      {state.notes.map((note, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: notes only grow at the end
        <Text key={i} dimColor wrap="truncate-end">
          {note}
        </Text>
      ))}
      <Text wrap="truncate-end">
        <Text bold>aizk worker</Text>
        {w ? ` ${w.queueManagerId.slice(0, 8)} · ${w.host} pid ${w.pid}` : ''} · <Text color={phaseColor}>{state.phase}</Text> · up{' '}
        {formatAgeMinutes(state.now - state.startedAt)} · db <Database db={state.db} />
      </Text>
      {state.phase === 'waiting' && state.db.lastError ? (
        <Text color="yellow" wrap="truncate-end">
          {oneLine(state.db.lastError, 120)}
        </Text>
      ) : null}
      {w ? (
        <Text dimColor wrap="truncate-end">
          batch {w.batchSize} · concurrency {w.concurrency} · in flight {state.inFlight} · {w.entrypoints.length} entrypoints
          {paused ? <Text color="yellow"> · {paused} paused</Text> : null}
        </Text>
      ) : null}
      {state.lastError ? (
        <Text color="red" wrap="truncate-end">
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
      <Text wrap="truncate-end">
        <Text bold>rate </Text> picked {formatSteadyRate(rates.picked)} · completed <Text color="green">{formatSteadyRate(rates.completed)}</Text> · failed{' '}
        <Text color={rates.failed > 0 ? 'yellow' : undefined}>{formatSteadyRate(rates.failed)}</Text>
      </Text>
      <Text wrap="truncate-end">
        <Text bold>total</Text> picked {formatCount(totals.picked)} · completed {formatCount(totals.completed)} · retried {formatCount(totals.retried)} · held{' '}
        <Text color={totals.held ? 'red' : undefined}>{formatCount(totals.held)}</Text> · canceled {formatCount(totals.canceled)} · released{' '}
        {formatCount(totals.released)} · recovered {formatCount(totals.recovered)}
      </Text>
    </Box>
  )
}

function More({ n, what }: { n: number; what: string }) {
  return n > 0 ? <Text dimColor>{` … ${n} more ${what}`}</Text> : null
}

function Entrypoints({ rows: all, shown }: { rows: EntrypointRow[]; shown: number }) {
  if (!all.length) return null
  const rows = all.slice(0, shown)
  const width = Math.min(40, Math.max(10, ...rows.map((r) => r.entrypoint.length)))
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold wrap="truncate-end">
        {fit('ENTRYPOINT', width)} {'IN FLIGHT'.padStart(10)} {'PICKED'.padStart(9)} {'DONE'.padStart(9)} {'RETRIED'.padStart(8)} {'HELD'.padStart(6)}
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
      <More n={all.length - rows.length} what="entrypoints" />
    </Box>
  )
}

function Picks({ picks: all, shown }: { picks: RecentPick[]; shown: number }) {
  const picks = all.slice(0, shown)
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
      <More n={all.length - picks.length} what="picks" />
    </Box>
  )
}

function Holds({ holds: all, shown }: { holds: RecentHold[]; shown: number }) {
  if (!all.length) return null
  const holds = all.slice(0, shown)
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
      <More n={all.length - holds.length} what="holds" />
    </Box>
  )
}

function Schedules({ schedules: all, now, shown }: { schedules: ScheduleRow[]; now: number; shown: number }) {
  if (!all.length) return null
  const schedules = all.slice(0, shown)
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold>next cron fires</Text>
      {schedules.map((s) => {
        const next = s.nextRun ? Date.parse(s.nextRun) : undefined
        return (
          <Text key={s.name} wrap="truncate-end">
            {' '}
            {fit(s.name, 24)} {next !== undefined ? `in ${formatAgeMinutes(next - now).padEnd(7)} ${s.nextRun}` : 'not scheduled'}
            {s.lastFiredAt ? (
              <Text dimColor>
                {' '}
                · last fired {s.lastFiredAt}, {s.lastEnqueued ?? 0} enqueued
              </Text>
            ) : null}
          </Text>
        )
      })}
      <More n={all.length - schedules.length} what="schedules" />
    </Box>
  )
}

/** Lines Header draws for this state. */
function headerHeight(state: WorkerViewState): number {
  return state.notes.length + 1 + (state.phase === 'waiting' && state.db.lastError ? 1 : 0) + (state.worker ? 1 : 0) + (state.lastError ? 1 : 0)
}

/** A list section: its lines for `items` entries (title and margin included) and how many it holds. */
interface Section {
  items: number
  /** Lines per entry (a hold takes two). */
  per: number
  /** Drawn even when empty (the picks: "none yet"). */
  always?: boolean
}

/**
 * How many entries each section shows within `space` lines: a section costs its margin and
 * title (2) plus one line, whose entry or "… more" line it shows; the rest of the space is
 * shared in turns. Sections that do not fit at all are dropped (null) from the last one up.
 */
export function sectionRows(space: number, sections: Section[]): (number | null)[] {
  const wanted = sections.map((s) => (s.items > 0 || s.always ? s.items * s.per : -1))
  const kept = wanted.map((w) => w >= 0)
  const cost = () => kept.reduce((n, k) => n + (k ? 3 : 0), 0)
  for (let i = sections.length - 1; i >= 0 && cost() > space; i--) kept[i] = false
  const extra = shareRows(
    space - cost(),
    wanted.map((w, i) => (kept[i] ? Math.max(0, w - 1) : 0)),
  )
  return sections.map((s, i) => {
    if (!kept[i]) return null
    const lines = 1 + extra[i]
    if (lines >= s.items * s.per) return s.items
    // Cut: one line goes to "… N more".
    return Math.max(0, Math.floor((lines - 1) / s.per))
  })
}

export function WorkerView({ state, size }: { state: WorkerViewState; size?: ScreenSize }) {
  const space = frameBudget(size) - headerHeight(state) - 3
  const all = [state.entrypoints.length, state.picks.length, state.holds.length, state.schedules.length]
  const [entrypoints, picks, holds, schedules] = Number.isFinite(space)
    ? sectionRows(space, [
        { items: all[0], per: 1 },
        { items: all[1], per: 1, always: true },
        { items: all[2], per: 2 },
        { items: all[3], per: 1 },
      ])
    : all
  return (
    <Box flexDirection="column" width={size?.columns}>
      <Header state={state} />
      <Throughput state={state} />
      {entrypoints === null ? null : <Entrypoints rows={state.entrypoints} shown={entrypoints} />}
      {picks === null ? null : <Picks picks={state.picks} shown={picks} />}
      {holds === null ? null : <Holds holds={state.holds} shown={holds} />}
      {schedules === null ? null : <Schedules schedules={state.schedules} now={state.now} shown={schedules} />}
    </Box>
  )
}
