/** Human formats shared by command output and the dashboard. */

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
