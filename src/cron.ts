/**
 * Cron expressions, behind one module. aizk settings use cron-parser's order (an optional
 * seconds field first); PgQueuer's pgqueuer_schedules stores croniter's order, where a sixth
 * field is seconds *last*. Every expression written to that table goes through
 * `toPgqueuerExpression`, and `fromPgqueuerExpression` reads one back.
 */
import { CronExpressionParser } from 'cron-parser'

/** The aliases cron-parser knows, in its six-field form (seconds first). */
const ALIASES: Record<string, string> = {
  '@yearly': '0 0 0 1 1 *',
  '@annually': '0 0 0 1 1 *',
  '@monthly': '0 0 0 1 * *',
  '@weekly': '0 0 0 * * 0',
  '@daily': '0 0 0 * * *',
  '@hourly': '0 0 * * * *',
  '@minutely': '0 * * * * *',
  '@secondly': '* * * * * *',
  '@weekdays': '0 0 0 * * 1-5',
  '@weekends': '0 0 0 * * 0,6',
}

export interface CronOptions {
  /** IANA zone the expression is read in; UTC unless settings say otherwise. */
  timezone?: string
}

function fields(expression: string): string[] {
  return expression.trim().split(/\s+/)
}

/** Expand an @alias to cron-parser's six fields; anything else is returned trimmed. */
function expandAlias(expression: string): string {
  const v = expression.trim()
  if (!v.startsWith('@')) return v
  const expanded = ALIASES[v]
  if (!expanded) throw new Error(`unknown cron alias ${v}`)
  return expanded
}

/** Throws with cron-parser's message when the expression is not valid. */
export function validateCron(expression: string, opts: CronOptions = {}): void {
  const expanded = expandAlias(expression)
  // cron-parser fills in missing fields ('* * *' parses); PgQueuer's table needs all of them.
  const n = fields(expanded).length
  if (n !== 5 && n !== 6) throw new Error(`expected 5 fields (or 6, seconds first), got ${n}`)
  CronExpressionParser.parse(expanded, { tz: opts.timezone ?? 'UTC' })
}

/** The first fire strictly after `from`. */
export function nextFireAfter(expression: string, from: Date, opts: CronOptions = {}): Date {
  const parsed = CronExpressionParser.parse(expandAlias(expression), { tz: opts.timezone ?? 'UTC', currentDate: from })
  return parsed.next().toDate()
}

/** The next `count` fires after `from`. */
export function nextFires(expression: string, from: Date, count: number, opts: CronOptions = {}): Date[] {
  const parsed = CronExpressionParser.parse(expandAlias(expression), { tz: opts.timezone ?? 'UTC', currentDate: from })
  return Array.from({ length: count }, () => parsed.next().toDate())
}

/**
 * The form PgQueuer reads: five fields as they are; six fields with the seconds moved last; an
 * alias expanded (and its zero seconds dropped, so '@daily' is stored as '0 0 * * *').
 */
export function toPgqueuerExpression(expression: string): string {
  const f = fields(expandAlias(expression))
  if (f.length === 5) return f.join(' ')
  if (f.length === 6) {
    const [seconds, ...rest] = f
    return seconds === '0' ? rest.join(' ') : [...rest, seconds].join(' ')
  }
  throw new Error(`expected a cron expression of 5 or 6 fields, got ${f.length}: "${expression}"`)
}

/** The cron-parser form of an expression stored by PgQueuer (seconds last -> seconds first). */
export function fromPgqueuerExpression(expression: string): string {
  const f = fields(expression)
  if (f.length === 6) return [f[5], ...f.slice(0, 5)].join(' ')
  return f.join(' ')
}
