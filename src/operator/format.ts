/**
 * Human formats of everything aizk shows: command output, the status dashboard and the worker
 * view. Fixed widths keep the live views' columns still as numbers change.
 */

export function formatAge(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '-'
  const s = Math.max(0, Math.round(seconds))
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
  if (s < 86400) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
  return `${Math.floor(s / 86400)}d${String(Math.floor((s % 86400) / 3600)).padStart(2, '0')}h`
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB']
  let v = bytes
  let i = 0
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return `${v >= 10 || i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}`
}

export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined) return '-'
  return Math.round(n).toLocaleString('en-US')
}

export function formatRate(perSecond: number): string {
  if (perSecond === 0) return '0/s'
  if (perSecond < 10) return `${perSecond.toFixed(1)}/s`
  return `${Math.round(perSecond).toLocaleString('en-US')}/s`
}

const SPARKS = '▁▂▃▄▅▆▇█'

/** A sparkline of values (one character each), scaled to the largest. */
export function sparkline(values: number[]): string {
  const max = Math.max(0, ...values)
  return values.map((v) => (max === 0 || v <= 0 ? (v > 0 ? SPARKS[0] : ' ') : SPARKS[Math.min(7, Math.floor((v / max) * 7.999))])).join('')
}

/** A relative time ("in 42s", "3m ago") for a timestamp. */
export function formatRelative(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '-'
  const diff = (new Date(iso).getTime() - now) / 1000
  return diff >= 0 ? `in ${formatAge(diff)}` : `${formatAge(-diff)} ago`
}

/** A one-line error, cut to `max` characters. */
export function truncate(text: string | null | undefined, max: number): string {
  if (!text) return '-'
  const one = text.replace(/\s+/g, ' ').trim()
  return one.length > max ? `${one.slice(0, max - 1)}…` : one
}

/** The live view's rate: one decimal below 100/s, so its column keeps its width as the rate moves. */
export function formatSteadyRate(perSecond: number): string {
  if (perSecond >= 100) return `${formatCount(perSecond)}/s`
  return `${perSecond.toFixed(1)}/s`
}

export function formatMs(ms: number | undefined): string {
  if (ms === undefined) return ''
  if (ms < 1000) return `${Math.round(ms)}ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`
  return formatDuration(ms)
}

/** 1h02m, 3m05s, 42s. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const sec = s % 60
  if (h) return `${h}h${String(m).padStart(2, '0')}m`
  if (m) return `${m}m${String(sec).padStart(2, '0')}s`
  return `${sec}s`
}

/** HH:MM:SS.mmm of a timestamp, local time. */
export function formatClock(at: number): string {
  const d = new Date(at)
  const pad = (n: number, w = 2) => String(n).padStart(w, '0')
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`
}

/** Scope sets are UUIDs: their first 8 hex digits tell them apart on screen. */
export function formatScopes(scopes: string[] | undefined, max = 3): string {
  if (!scopes?.length) return ''
  const shown = scopes.slice(0, max).map((s) => s.slice(0, 8))
  return `{${shown.join(',')}${scopes.length > max ? `,+${scopes.length - max}` : ''}}`
}

export function formatLimit(inFlight: number, limit: number): string {
  return `${inFlight}/${limit > 0 ? limit : '∞'}`
}

/** One line of an error: the first line, cut to `width`. */
export function oneLine(text: string, width: number): string {
  const first = text.split('\n')[0]
  return first.length > width ? `${first.slice(0, width - 1)}…` : first
}

export function fit(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width)
}

/**
 * A duration at minute resolution: <1m, 4m, 1h02m, 3d04h. The live view shows ages and
 * countdowns this way, so an idle worker's frame stays the same for a minute and is not redrawn.
 */
export function formatAgeMinutes(ms: number): string {
  const m = Math.floor(Math.max(0, ms) / 60_000)
  if (m < 1) return '<1m'
  if (m < 60) return `${m}m`
  const h = Math.floor(m / 60)
  if (h < 24) return `${h}h${String(m % 60).padStart(2, '0')}m`
  return `${Math.floor(h / 24)}d${String(h % 24).padStart(2, '0')}h`
}
