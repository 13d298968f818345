/**
 * Look-back windows and thresholds as tools take them: ISO 8601 durations as PgQueuer's MCP
 * tools do (`PT5M`, `PT1H`, `P1D`), or aizk's own (`5m`, `1h30m`).
 */

import { UsageError } from '../errors.js'
import { MAX_AGE_MS, parseDuration } from '../operator/duration.js'
import { MAX_DAYS } from '../settings-types.js'

const ISO = /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/

/** Seconds of `text`; undefined when it is absent. A malformed, non-positive or over-100-years one is a usage error. */
export function durationSeconds(text: string | undefined, name: string): number | undefined {
  if (text === undefined || text.trim() === '') return undefined
  const t = text.trim().toUpperCase()
  const iso = ISO.exec(t)
  let seconds: number | null = null
  if (iso && t !== 'P' && t !== 'PT') {
    const [d, h, m, s] = iso.slice(1).map((g) => (g ? Number(g) : 0))
    seconds = d * 86400 + h * 3600 + m * 60 + s
  } else {
    const ms = parseDuration(text)
    if (ms !== null) seconds = ms / 1000
  }
  if (seconds === null || seconds <= 0) {
    throw new UsageError(`${name} "${text}" is not a positive duration`, "use ISO 8601 such as 'PT5M', 'PT1H', 'P1D', or '5m', '2h'")
  }
  if (seconds > MAX_AGE_MS / 1000)
    throw new UsageError(`${name} "${text}" is longer than ${MAX_DAYS} days (100 years)`, "use a shorter duration, such as 'P7D' or '7d'")
  return seconds
}
