/** HTML building for the dashboard's pages: escaping, the page frame, tables and forms. */

export function esc(value: unknown): string {
  return String(value ?? '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

/** A trusted HTML fragment (already escaped or built by this module). */
export class Html {
  constructor(readonly text: string) {}
  toString() {
    return this.text
  }
}

/** Tagged template: interpolated values are escaped unless they are Html (or arrays of it). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]
  })
  return new Html(out)
}

function render(v: unknown): string {
  if (v instanceof Html) return v.text
  if (Array.isArray(v)) return v.map(render).join('')
  if (v === null || v === undefined || v === false) return ''
  return esc(v)
}

export const PAGES = [
  { path: '/', title: 'Overview' },
  { path: '/entrypoints', title: 'Entrypoints' },
  { path: '/jobs', title: 'Jobs' },
  { path: '/held', title: 'Held' },
  { path: '/schedules', title: 'Schedules' },
  { path: '/scopes', title: 'Scope sets' },
] as const

export interface PageFrame {
  title: string
  /** The nav entry to mark current. */
  path: string
  csrf: string
  readOnly: boolean
  /** A message after an action (from the redirect's query). */
  flash?: string | null
}

export function page(frame: PageFrame, body: Html): string {
  const nav = PAGES.map((p) => html`<li><a href="${p.path}"${p.path === frame.path ? new Html(' aria-current="page"') : ''}>${p.title}</a></li>`)
  return `<!doctype html>${
    html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${frame.title} · aizk dashboard</title><link rel="stylesheet" href="/assets/app.css"><link rel="icon" href="data:,"><meta name="csrf-token" content="${frame.csrf}"></head>
<body><a class="skip" href="#main">Skip to content</a>
<header><span class="brand">aizk</span><nav aria-label="Pages"><ul>${nav}</ul></nav>
<span class="live" id="live-status" role="status" aria-live="polite">connecting…</span>${frame.readOnly ? html`<span class="badge">read-only</span>` : ''}</header>
<main id="main" tabindex="-1"><h1>${frame.title}</h1>${frame.flash ? html`<p class="flash" role="status">${frame.flash}</p>` : ''}${body}</main>
<script src="/assets/app.js" defer></script></body></html>`.text
  }`
}

export interface Column<T> {
  header: string
  cell: (row: T) => unknown
  numeric?: boolean
}

export function table<T>(caption: string, rows: T[], columns: Column<T>[], empty = 'none'): Html {
  if (rows.length === 0) return html`<p class="empty">${caption}: ${empty}</p>`
  return html`<div class="scroll"><table><caption>${caption}</caption><thead><tr>${columns.map(
    (c) => html`<th scope="col"${c.numeric ? new Html(' class="num"') : ''}>${c.header}</th>`,
  )}</tr></thead><tbody>${rows.map(
    (r) => html`<tr>${columns.map((c) => html`<td${c.numeric ? new Html(' class="num"') : ''}>${c.cell(r)}</td>`)}</tr>`,
  )}</tbody></table></div>`
}

/** A POST form for one action: CSRF token, hidden fields, one button. */
export function actionForm(
  action: string,
  csrf: string,
  fields: Record<string, string>,
  label: string,
  opts: { danger?: boolean; confirm?: string; ariaLabel?: string } = {},
): Html {
  return html`<form method="post" action="${action}" class="inline"${opts.confirm ? html` data-confirm="${opts.confirm}"` : ''}><input type="hidden" name="_csrf" value="${csrf}">${Object.entries(
    fields,
  ).map(
    ([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`,
  )}<button type="submit"${opts.danger ? new Html(' class="danger"') : ''}${opts.ariaLabel ? html` aria-label="${opts.ariaLabel}"` : ''}>${label}</button></form>`
}

export function stateBadge(state: string): Html {
  return html`<span class="state state-${state}">${state}</span>`
}
