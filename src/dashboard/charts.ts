/**
 * Inline SVG bar charts: no script, no library. Each chart is an image with a text alternative
 * (its label, the last value and the peak) and a <title> per bar for pointer users.
 */
import { esc } from './html.js'

export interface ChartSpec {
  label: string
  values: number[]
  /** Per bar, what it stands for ("3 min ago"). */
  barLabel: (index: number) => string
  format: (value: number) => string
}

const W = 360
const H = 96

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
  const last = spec.values.at(-1) ?? 0
  const alt = `${spec.label}: now ${spec.format(last)}, peak ${spec.format(max)} over ${spec.values.length} samples`
  return `<figure class="chart"><svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(alt)}" preserveAspectRatio="none"><line x1="0" y1="${H - 0.5}" x2="${W}" y2="${H - 0.5}" class="axis"/>${bars}</svg><figcaption>${esc(spec.label)}: <strong>${esc(spec.format(last))}</strong> now, peak ${esc(spec.format(max))}</figcaption></figure>`
}
