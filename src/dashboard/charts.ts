/**
 * Inline SVG bar charts: no script, no library. Each chart is an image with a text alternative
 * (its label, the last value and the peak), a <title> per bar for pointer users, a time axis
 * (clock times under chosen bars) and the peak marked on the value axis.
 */
import { esc } from './html.js'

export interface ChartSpec {
  label: string
  values: number[]
  /** Per bar, what it stands for ("3 min ago"). */
  barLabel: (index: number) => string
  format: (value: number) => string
  /** Time-axis labels: the bar index each stands under, and its text (16:40). */
  ticks?: { index: number; label: string }[]
}

const W = 360
const H = 96
/** Room under the bars for the time axis. */
const AXIS = 16

/** Evenly spaced tick indexes over `n` bars, the last one always included. */
export function tickIndexes(n: number, count = 4): number[] {
  if (n <= 0) return []
  const step = Math.max(1, Math.round((n - 1) / count))
  const out: number[] = []
  for (let i = n - 1; i >= 0; i -= step) out.unshift(i)
  return out
}

/** A UTC clock time to the minute (16:40), or to the second when `seconds`. */
export function clock(ms: number, seconds = false): string {
  return new Date(ms).toISOString().slice(11, seconds ? 19 : 16)
}

export function barChart(spec: ChartSpec): string {
  const n = Math.max(spec.values.length, 1)
  const max = Math.max(...spec.values, 0)
  const step = W / n
  const bars = spec.values
    .map((v, i) => {
      const h = max > 0 ? Math.max((v / max) * (H - 16), v > 0 ? 2 : 0) : 0
      return `<rect x="${(i * step + 1).toFixed(1)}" y="${(H - h).toFixed(1)}" width="${Math.max(step - 2, 1).toFixed(1)}" height="${h.toFixed(1)}"><title>${esc(`${spec.barLabel(i)}: ${spec.format(v)}`)}</title></rect>`
    })
    .join('')
  const ticks = (spec.ticks ?? [])
    .map((t) => {
      const x = t.index * step + step / 2
      // Labels near an edge hang inward, so none is cut off.
      const [tx, anchor] = x < 24 ? [1, 'start'] : x > W - 24 ? [W - 1, 'end'] : [x, 'middle']
      return `<line x1="${x.toFixed(1)}" y1="${H}" x2="${x.toFixed(1)}" y2="${H + 3}" class="axis"/><text x="${tx.toFixed(1)}" y="${H + AXIS - 3}" text-anchor="${anchor}" class="tick">${esc(t.label)}</text>`
    })
    .join('')
  const peak = max > 0 ? `<line x1="0" y1="16" x2="${W}" y2="16" class="grid"/><text x="2" y="12" class="tick">${esc(spec.format(max))}</text>` : ''
  const last = spec.values.at(-1) ?? 0
  const alt = `${spec.label}: now ${spec.format(last)}, peak ${spec.format(max)} over ${spec.values.length} samples`
  return `<figure class="chart"><svg viewBox="0 0 ${W} ${H + AXIS}" role="img" aria-label="${esc(alt)}">${peak}<line x1="0" y1="${H - 0.5}" x2="${W}" y2="${H - 0.5}" class="axis"/>${bars}${ticks}</svg><figcaption>${esc(spec.label)}: <strong>${esc(spec.format(last))}</strong> now, peak ${esc(spec.format(max))}</figcaption></figure>`
}
