/**
 * The held page at scale: state tabs with counts, filters by entrypoint, priority, age and error
 * text, the matching errors grouped by their first line, a page of the matching jobs with their
 * error as readable text, and "requeue / discard every job matching this filter" through a
 * confirmation page that shows the count. Pure functions of their data, like pages.ts.
 */

import { formatAge, formatCount } from '../operator/format.js'
import type { ErrorGroup, FoundHeld } from '../queue/held-search.js'
import { Html, html, table } from './html.js'
import type { JobsFilter } from './pages.js'
import type { StateCounts } from './state-counts.js'

export interface HeldFilter extends JobsFilter {
  /** Only jobs whose error contains this text (any case). */
  error?: string
}

/** The filter as a query string (without the page cursor unless given). */
export function heldQuery(f: HeldFilter, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams()
  if (f.entrypoint) q.set('entrypoint', f.entrypoint)
  if (f.priority) q.set('priority', f.priority)
  if (f.olderThan) q.set('older', f.olderThan)
  if (f.error) q.set('error', f.error)
  q.set('limit', String(f.limit))
  for (const [k, v] of Object.entries(extra)) q.set(k, v)
  return q.toString()
}

/** " matching entrypoint x, error containing "503"", or nothing when the filter takes every held job. */
export function matchingPhrase(f: HeldFilter): string {
  const d = describeFilter(f)
  return d === EVERY ? '' : ` matching ${d}`
}

const EVERY = 'every held job'

/** What the filter picks, in words ("entrypoint x, error containing "503""). */
export function describeFilter(f: HeldFilter): string {
  const parts = [
    f.entrypoint ? `entrypoint ${f.entrypoint}` : null,
    f.priority ? `priority ${f.priority}` : null,
    f.olderThan ? `held for at least ${f.olderThan}` : null,
    f.error ? `error containing "${f.error}"` : null,
  ].filter((p): p is string => p !== null)
  return parts.length ? parts.join(', ') : EVERY
}

/** Tabs over the job states, each with its live count; `current` is marked. */
export function stateTabs(counts: StateCounts, current: string | undefined): Html {
  const tabs = [
    { state: '', key: 'all', label: 'Every live job', n: counts.ready + counts.scheduled + counts.picked + counts.held, href: '/jobs' },
    { state: 'queued', key: 'ready', label: 'Ready', n: counts.ready, href: '/jobs?state=queued' },
    { state: 'scheduled', key: 'scheduled', label: 'Scheduled', n: counts.scheduled, href: '/jobs?state=scheduled' },
    { state: 'picked', key: 'picked', label: 'Running', n: counts.picked, href: '/jobs?state=picked' },
    { state: 'held', key: 'held', label: 'Held', n: counts.held, href: '/held' },
  ]
  return html`<nav class="tabs" aria-label="Job states"><ul>${tabs.map(
    (t) =>
      html`<li><a href="${t.href}"${t.state === (current ?? '') ? new Html(' aria-current="true"') : ''}>${t.label} <span class="count" data-live="states.${t.key}">${formatCount(t.n)}</span></a></li>`,
  )}</ul></nav>`
}

function heldFilterForm(f: HeldFilter, entrypoints: string[]): Html {
  return html`<form class="filters" method="get" action="/held" role="search" aria-label="Filter held jobs">
<label>Entrypoint<select name="entrypoint"><option value="">every entrypoint</option>${entrypoints.map((e) => html`<option${e === f.entrypoint ? html` selected` : ''}>${e}</option>`)}</select></label>
<label>Priority<input name="priority" inputmode="numeric" size="5" value="${f.priority ?? ''}"></label>
<label>Held for at least<input name="older" size="6" placeholder="30m" value="${f.olderThan ?? ''}"></label>
<label>Error contains<input name="error" type="search" size="28" placeholder="timeout" value="${f.error ?? ''}"></label>
<label>Per page<input name="limit" inputmode="numeric" size="4" value="${f.limit}"></label>
<button type="submit">Show</button>${f.entrypoint || f.priority || f.olderThan || f.error ? html` <a href="/held">Clear the filter</a>` : ''}</form>`
}

function groupsTable(groups: ErrorGroup[], f: HeldFilter, now: number): Html {
  return html`<section aria-labelledby="h-groups" data-live-region="held-groups"><h2 id="h-groups">Errors, grouped by their first line</h2>${table(
    'Held jobs per error',
    groups,
    [
      {
        header: 'Error (first line)',
        cell: (g) =>
          g.firstLine
            ? html`<a class="error-line" href="/held?${heldQuery({ ...f, error: g.firstLine })}">${g.firstLine}</a>`
            : html`<span class="empty">no error kept</span>`,
      },
      { header: 'Jobs', cell: (g) => formatCount(g.count), numeric: true },
      { header: 'Latest held', cell: (g) => `${formatAge((now - Date.parse(g.latest)) / 1000)} ago`, numeric: true },
      { header: 'Oldest job', cell: (g) => html`<a href="/jobs/${g.oldestId}">${g.oldestId}</a>`, numeric: true },
    ],
    'no held job matches',
  )}</section>`
}

export interface HeldView {
  jobs: FoundHeld[]
  nextAfter: string | null
  /** Every held job the filter matches (not only this page). */
  matching: number
  groups: ErrorGroup[]
  counts: StateCounts
  now: number
}

export function heldPageBody(v: HeldView, f: HeldFilter, entrypoints: string[], csrf: string, readOnly: boolean, bound: number): Html {
  const back = `/held?${heldQuery(f)}`
  const selected = readOnly
    ? html`<p class="empty">Read-only: requeue and discard are off.</p>`
    : html`<form id="held-actions" method="post" action="/actions/held"><input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="back" value="${back}">
<div class="bar"><label><input type="checkbox" id="select-all"> Select every job on this page</label>
<button type="submit" name="action" value="requeue">Requeue selected</button>
<button type="submit" name="action" value="discard" class="danger">Discard selected</button></div></form>`
  const every =
    readOnly || v.matching === 0
      ? html`<div data-live-region="held-bulk"></div>`
      : html`<div class="bar bulk" data-live-region="held-bulk"><span><strong>${formatCount(v.matching)}</strong> held job(s)${matchingPhrase(f) || ' in all'}${v.matching > bound ? ` (one action takes the oldest ${formatCount(bound)})` : ''}.</span>
<a class="button" href="/held/confirm?${heldQuery(f, { action: 'requeue' })}">Requeue every matching job…</a>
<a class="button danger" href="/held/confirm?${heldQuery(f, { action: 'discard' })}">Discard every matching job…</a></div>`
  const rows = table(
    'Held jobs',
    v.jobs,
    [
      ...(readOnly
        ? []
        : [
            {
              header: 'Select',
              cell: (j: FoundHeld) => html`<input type="checkbox" name="ids" value="${j.id}" form="held-actions" aria-label="Select job ${j.id}">`,
            },
          ]),
      { header: 'ID', cell: (j) => html`<a href="/jobs/${j.id}">${j.id}</a>`, numeric: true },
      { header: 'Entrypoint', cell: (j) => j.entrypoint },
      { header: 'Priority', cell: (j) => j.priority, numeric: true },
      { header: 'Cycles', cell: (j) => j.cycles, numeric: true },
      { header: 'Held for', cell: (j) => formatAge(j.ageSeconds), numeric: true },
      { header: 'Last error', cell: (j) => (j.error ? html`<span class="error-line">${j.error.split('\n')[0]}</span>` : '-') },
    ],
    'no held job matches',
  )
  const pager = v.nextAfter
    ? html`<p class="pager"><a href="/held?${heldQuery(f, { after: v.nextAfter })}" rel="next">Next page (after job ${v.nextAfter})</a></p>`
    : ''
  return html`${stateTabs(v.counts, 'held')}${heldFilterForm(f, entrypoints)}${every}${groupsTable(v.groups, f, v.now)}
<section aria-labelledby="h-held-list"><h2 id="h-held-list">The jobs</h2>${v.jobs.length ? selected : ''}<div data-live-region="held-list">${rows}</div>${pager}</section>`
}

/** The confirmation before acting on every match: the count, the filter in words, the bound. */
export function confirmBody(action: 'requeue' | 'discard', f: HeldFilter, matching: number, bound: number, csrf: string): Html {
  const back = `/held?${heldQuery(f)}`
  if (matching === 0) return html`<p>No held job${matchingPhrase(f)} any more: nothing to ${action}.</p><p><a href="${back}">Back to the held jobs</a></p>`
  const take = Math.min(matching, bound)
  const verb = action === 'requeue' ? 'Requeue' : 'Discard'
  const what =
    action === 'requeue'
      ? html`They go back to queued with their attempts reset and one more cycle counted, as <code>aizk requeue</code> does.`
      : html`They are deleted for good, each with a <code>deleted</code> log row naming you, as <code>aizk discard</code> does.`
  return html`<p class="confirm" role="alert"><strong>${verb} ${formatCount(take)} held job(s)</strong>${matchingPhrase(f)}${matching > take ? html` (the oldest ${formatCount(take)} of ${formatCount(matching)}: one action is bounded; run it again for the rest)` : ''}?</p>
<p>${what} Jobs that stop matching or are taken by someone else meanwhile are left alone; never more than ${formatCount(take)} move.</p>
<form method="post" action="/actions/held-matching" class="bar"><input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="action" value="${action}"><input type="hidden" name="expected" value="${take}">${[
    ['entrypoint', f.entrypoint],
    ['priority', f.priority],
    ['older', f.olderThan],
    ['error', f.error],
  ].map(([k, v]) => (v ? html`<input type="hidden" name="${k}" value="${v}">` : ''))}<input type="hidden" name="back" value="${back}">
<button type="submit"${action === 'discard' ? new Html(' class="danger"') : ''}>Yes, ${action} ${formatCount(take)} job(s)</button> <a href="${back}">No, go back</a></form>`
}
