/** Small formatters of the worker view: fixed widths keep the columns still as numbers change. */

export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US')
}

export function formatRate(perSecond: number): string {
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
export function formatAge(ms: number): string {
  const m = Math.floor(Math.max(0, ms) / 60_000)
  if (m < 1) return '<1m'
  if (m < 60) return `${m}m`
  const h = Math.floor(m / 60)
  if (h < 24) return `${h}h${String(m % 60).padStart(2, '0')}m`
  return `${Math.floor(h / 24)}d${String(h % 24).padStart(2, '0')}h`
}
