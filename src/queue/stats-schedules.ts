/**
 * Schedules for operators: the pgqueuer_schedules rows with their next and last fire, the
 * cron's period, and whether a tick is overdue (no fire in twice its period).
 */
import { CronExpressionParser } from 'cron-parser'
import type { Queryable } from '../db/queryable.js'
import { readScheduleRows } from '../db/sql/pgqueuer-schedules.js'

export interface ScheduleInfo {
  entrypoint: string
  expression: string
  status: string
  nextRun: string
  lastRun: string | null
  /** Seconds between two fires of the cron, null when the expression cannot be read. */
  periodSeconds: number | null
  /** Seconds since the last fire (or since the row was created, before the first fire). */
  sinceFireSeconds: number
  /** No fire in twice the cron's period. */
  overdue: boolean
  /** Not one of aizk's own ticks (`aizk_cron_<name>`): a PgQueuer scheduler's row, for instance. */
  foreign: boolean
}

/** aizk's own schedule rows; every other row belongs to another scheduler (PgQueuer's). */
export function isAizkSchedule(entrypoint: string): boolean {
  return entrypoint.startsWith('aizk_cron_')
}

/**
 * PgQueuer (croniter) puts seconds last in a six-field cron; cron-parser reads them first.
 * Five fields pass through unchanged.
 */
export function toCronParserExpression(expression: string): string {
  const fields = expression.trim().split(/\s+/)
  if (fields.length === 6) return [fields[5], ...fields.slice(0, 5)].join(' ')
  return fields.join(' ')
}

/** Seconds between the two fires after `from`, null for an expression cron-parser rejects. */
export function cronPeriodSeconds(expression: string, tz = 'UTC', from = new Date()): number | null {
  try {
    const it = CronExpressionParser.parse(toCronParserExpression(expression), { tz, currentDate: from })
    const a = it.next().getTime()
    const b = it.next().getTime()
    return (b - a) / 1000
  } catch {
    return null
  }
}

/** The next fire after `from`, null for an expression cron-parser rejects. */
export function nextFire(expression: string, tz = 'UTC', from = new Date()): Date | null {
  try {
    return CronExpressionParser.parse(toCronParserExpression(expression), { tz, currentDate: from }).next().toDate()
  } catch {
    return null
  }
}

export async function readSchedules(db: Queryable, tz = 'UTC'): Promise<ScheduleInfo[]> {
  const rows = await readScheduleRows(db)
  return rows.map((r) => {
    const period = cronPeriodSeconds(r.expression, tz, r.last_run ?? r.now)
    return {
      entrypoint: r.entrypoint,
      expression: r.expression,
      status: r.status ?? 'queued',
      nextRun: r.next_run.toISOString(),
      lastRun: r.last_run?.toISOString() ?? null,
      periodSeconds: period,
      sinceFireSeconds: Math.max(0, r.since),
      overdue: period !== null && r.since > 2 * period,
      foreign: !isAizkSchedule(r.entrypoint),
    }
  })
}
