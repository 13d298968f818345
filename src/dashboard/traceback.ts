/**
 * A log row's traceback as readable text: PgQueuer's record ({exception_type, exception_message,
 * traceback, additional_context}) becomes its "type: message" line, the traceback's own lines
 * (wrapped, never escaped JSON) and the context as key: value lines; any other shape is shown as
 * indented JSON, and a plain string as it is.
 */
import { type Html, html } from './html.js'

export function tracebackText(value: unknown): Html {
  if (value === null || value === undefined) return html`-`
  if (typeof value === 'string') return html`<pre class="wrap">${value}</pre>`
  if (typeof value !== 'object' || Array.isArray(value)) return html`<pre class="wrap">${JSON.stringify(value, null, 2)}</pre>`
  const v = value as Record<string, unknown>
  const type = v.exception_type ?? v.type ?? v.name
  const message = v.exception_message ?? v.message ?? v.error
  if (type === undefined && message === undefined) return html`<pre class="wrap">${JSON.stringify(value, null, 2)}</pre>`
  const head = [type, message]
    .filter((x) => x !== undefined && x !== null && x !== '')
    .map(String)
    .join(': ')
  const trace = typeof v.traceback === 'string' ? v.traceback.trimEnd() : v.traceback ? JSON.stringify(v.traceback, null, 2) : ''
  const context = v.additional_context && typeof v.additional_context === 'object' ? Object.entries(v.additional_context as Record<string, unknown>) : []
  return html`<div class="traceback"><p class="error-line"><strong>${head}</strong></p>${trace ? html`<pre class="wrap">${trace}</pre>` : ''}${
    context.length ? html`<dl class="facts">${context.map(([k, x]) => html`<dt>${k}</dt><dd>${typeof x === 'string' ? x : JSON.stringify(x)}</dd>`)}</dl>` : ''
  }</div>`
}
