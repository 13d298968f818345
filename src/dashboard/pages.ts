/**
 * The dashboard's pages as HTML, from the same reads the commands make: `aizk status`'s stats,
 * `aizk jobs`'s pages, `aizk jobs show`'s story, `aizk roster`'s counts. Pure functions of their
 * data, so each page is rendered the same way in the server and in tests.
 */

import { formatAge, formatCount, formatRate } from '../operator/format.js'
import type { InventoryRow } from '../operator/job-inventory.js'
import type { jobStoryJson } from '../operator/job-story-view.js'
import { JOB_STATES, type JobsPage, type ListedJob } from '../queue/list-jobs.js'
import type { Outcome } from '../queue/recent-outcomes.js'
import { describeError } from '../queue/stats-held.js'
import { workerState } from '../queue/stats-workers.js'
import { describeGate } from '../scope/memory-backlog.js'
import type { RosterEntry } from '../scope/roster-counts.js'
import type { DashboardStats } from './context.js'
import { stateTabs } from './held-page.js'
import { actionForm, Html, html, stateBadge, table } from './html.js'
import type { StateCounts } from './state-counts.js'
import { tracebackText } from './traceback.js'

const jobLink = (id: string) => html`<a href="/jobs/${id}">${id}</a>`
const ago = (iso: string | null | undefined, now: number) => (iso ? formatAge((now - Date.parse(iso)) / 1000) : '-')
/** 2026-12-03 16:49:00Z: a timestamp to the second, short enough for a table cell. */
const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)}Z`

function card(label: string, value: unknown, live?: string): Html {
  return html`<div class="card"><span class="n"${live ? html` data-live="${live}"` : ''}>${value}</span><span class="k">${label}</span></div>`
}

export function overviewBody(
  stats: DashboardStats,
  states: StateCounts,
  charts: { throughput: string; latency: string },
  recent: Outcome[],
  oldestWaitSeconds: number,
): Html {
  const now = Date.parse(stats.generatedAt)
  const m = stats.memory
  return html`<section aria-labelledby="h-totals"><h2 id="h-totals">Right now</h2><div class="cards">
${card('ready to run', formatCount(states.ready), 'states.ready')}${card('scheduled for later', formatCount(states.scheduled), 'states.scheduled')}${card('picked (running)', formatCount(stats.totals.picked), 'totals.picked')}
${card('held', formatCount(stats.totals.held), 'totals.held')}${card('workers alive', `${stats.workers.alive}`, 'workersAlive')}
${card('finished / s', formatRate(stats.throughput.perSecondNow), 'throughputPerSecond')}${card('oldest ready job waiting', formatAge(oldestWaitSeconds), 'oldestWait')}
${card('chunks pending projection', formatCount(m?.chunksPendingProjection ?? 0), 'memory.chunksPendingProjection')}${card('dirty profiles', formatCount(m?.dirtyProfiles ?? 0), 'memory.dirtyProfiles')}
</div></section>
<section aria-labelledby="h-charts"><h2 id="h-charts">Over time</h2><div class="charts"><div data-chart="throughput">${new Html(charts.throughput)}</div><div data-chart="latency">${new Html(charts.latency)}</div></div></section>
<section aria-labelledby="h-depth" data-live-region="depth"><h2 id="h-depth">Depth per entrypoint and status</h2>
${table(
  'Jobs per entrypoint',
  stats.entrypoints,
  [
    {
      header: 'Entrypoint',
      cell: (e) => html`<a href="/jobs?entrypoint=${e.entrypoint}">${e.entrypoint}</a>${e.paused ? html` <span class="badge">paused</span>` : ''}`,
    },
    { header: 'Queued', cell: (e) => formatCount(e.queued), numeric: true },
    { header: 'Picked', cell: (e) => formatCount(e.picked), numeric: true },
    { header: 'Held', cell: (e) => (e.held ? html`<a href="/held?entrypoint=${e.entrypoint}">${formatCount(e.held)}</a>` : '0'), numeric: true },
    { header: 'Oldest ready wait', cell: (e) => formatAge(e.oldestQueuedAgeSeconds), numeric: true },
    { header: 'Next scheduled', cell: (e) => (e.nextScheduledAt ? `in ${formatAge((Date.parse(e.nextScheduledAt) - now) / 1000)}` : '-'), numeric: true },
    { header: 'Finished / s', cell: (e) => formatRate(e.throughputPerSecond), numeric: true },
  ],
  'the queue is empty',
)}</section>
<section aria-labelledby="h-workers" data-live-region="workers"><h2 id="h-workers">Workers</h2>
${table(
  'Workers',
  stats.workers.list,
  [
    { header: 'Host', cell: (w) => w.host },
    { header: 'PID', cell: (w) => w.pid, numeric: true },
    { header: 'Version', cell: (w) => w.version },
    { header: 'Entrypoints it runs', cell: (w) => html`<span class="list">${w.entrypoints.join(', ')}</span>` },
    { header: 'Picked', cell: (w) => w.picked, numeric: true },
    { header: 'Heartbeat age', cell: (w) => formatAge(w.heartbeatAgeSeconds), numeric: true },
    { header: 'State', cell: (w) => workerState(w) },
    { header: 'Started', cell: (w) => `${ago(w.started, now)} ago` },
  ],
  'no worker has registered',
)}
${
  stats.workers.foreign.length
    ? table('Foreign queue managers (PgQueuer workers)', stats.workers.foreign, [
        { header: 'Queue manager', cell: (f) => f.queueManagerId },
        { header: 'Entrypoints', cell: (f) => f.entrypoints.join(', ') },
        { header: 'Picked', cell: (f) => f.picked, numeric: true },
        { header: 'Heartbeat age', cell: (f) => formatAge(f.heartbeatAgeSeconds), numeric: true },
      ])
    : ''
}
<p>Stale picks: ${stats.stalePicks.count}. Held: <a href="/held">${formatCount(stats.held.count)}</a>. Health: ${stats.health.healthy ? 'healthy' : stats.health.problems.map((p) => p.message).join('; ')}.</p></section>
<section aria-labelledby="h-done"><h2 id="h-done">Finished jobs, live</h2>
${recent.length ? '' : html`<p class="empty" id="completions-none">none kept in the log yet</p>`}
<ol class="feed" id="completions" aria-live="polite" aria-label="Finished jobs, newest first">${[...recent]
    .reverse()
    .map(
      (c) => html`<li data-job-id="${c.jobId}"><a href="/jobs/${c.jobId}">job ${c.jobId}</a> ${c.entrypoint} ${c.status} at ${c.created.slice(11, 19)}Z</li>`,
    )}</ol></section>`
}

export interface EntrypointRow {
  entrypoint: string
  inventory: InventoryRow | null
  stats: DashboardStats['entrypoints'][number] | null
  paused: { pausedAt: string; pausedBy: string | null } | null
}

export function entrypointsBody(rows: EntrypointRow[], csrf: string, readOnly: boolean): Html {
  return html`<div data-live-region="entrypoints">${entrypointsTable(rows, csrf, readOnly)}</div>`
}

function entrypointsTable(rows: EntrypointRow[], csrf: string, readOnly: boolean): Html {
  return table('Entrypoints', rows, [
    { header: 'Entrypoint', cell: (r) => html`<a href="/jobs?entrypoint=${r.entrypoint}">${r.entrypoint}</a>` },
    { header: 'Kind', cell: (r) => r.inventory?.kind ?? html`<span class="foreign">not registered here</span>` },
    { header: 'Priority', cell: (r) => r.inventory?.priority ?? '-', numeric: true },
    { header: 'Limit', cell: (r) => (r.inventory ? (r.inventory.concurrencyLimit === 0 ? 'unbounded' : r.inventory.concurrencyLimit) : '-'), numeric: true },
    { header: 'Attempts', cell: (r) => r.inventory?.maxAttempts ?? '-', numeric: true },
    { header: 'Queued', cell: (r) => formatCount(r.stats?.queued ?? 0), numeric: true },
    { header: 'Picked', cell: (r) => formatCount(r.stats?.picked ?? 0), numeric: true },
    { header: 'Held', cell: (r) => formatCount(r.stats?.held ?? 0), numeric: true },
    { header: 'State', cell: (r) => (r.paused ? `paused by ${r.paused.pausedBy ?? '?'}` : 'running') },
    {
      header: 'Action',
      cell: (r) =>
        readOnly
          ? '-'
          : r.paused
            ? actionForm('/actions/resume', csrf, { entrypoint: r.entrypoint, back: '/entrypoints' }, 'Resume', { ariaLabel: `Resume ${r.entrypoint}` })
            : actionForm('/actions/pause', csrf, { entrypoint: r.entrypoint, back: '/entrypoints' }, 'Pause', { ariaLabel: `Pause ${r.entrypoint}` }),
    },
  ])
}

export interface JobsFilter {
  state?: string
  entrypoint?: string
  priority?: string
  olderThan?: string
  limit: number
}

function query(f: JobsFilter, after?: string | null): string {
  const q = new URLSearchParams()
  if (f.state) q.set('state', f.state)
  if (f.entrypoint) q.set('entrypoint', f.entrypoint)
  if (f.priority) q.set('priority', f.priority)
  if (f.olderThan) q.set('older', f.olderThan)
  q.set('limit', String(f.limit))
  if (after) q.set('after', after)
  return q.toString()
}

function filterForm(f: JobsFilter, entrypoints: string[], path: string): Html {
  const states = ['', ...JOB_STATES]
  return html`<form class="filters" method="get" action="${path}" role="search" aria-label="Filter jobs">
${path === '/jobs' ? html`<label>State<select name="state">${states.map((s) => html`<option value="${s}"${s === (f.state ?? '') ? html` selected` : ''}>${s || 'every live job'}</option>`)}</select></label>` : ''}
<label>Entrypoint<select name="entrypoint"><option value="">every entrypoint</option>${entrypoints.map((e) => html`<option${e === f.entrypoint ? html` selected` : ''}>${e}</option>`)}</select></label>
<label>Priority<input name="priority" inputmode="numeric" size="5" value="${f.priority ?? ''}"></label>
<label>In its state for at least<input name="older" size="6" placeholder="30m" value="${f.olderThan ?? ''}"></label>
<label>Per page<input name="limit" inputmode="numeric" size="4" value="${f.limit}"></label>
<button type="submit">Show</button></form>`
}

function pager(page: JobsPage, f: JobsFilter, path: string): Html {
  return page.nextAfter
    ? html`<p class="pager"><a href="${path}?${query(f, page.nextAfter)}" rel="next">Next page (after job ${page.nextAfter})</a></p>`
    : html``
}

export function jobsBody(page: JobsPage, f: JobsFilter, entrypoints: string[], counts: StateCounts): Html {
  return html`${stateTabs(counts, f.state)}${filterForm(f, entrypoints, '/jobs')}<div data-live-region="jobs">${jobsTable(page.jobs)}</div>${pager(page, f, '/jobs')}`
}

function jobsTable(jobs: ListedJob[]): Html {
  return table(
    'Jobs',
    jobs,
    [
      { header: 'ID', cell: (j) => jobLink(j.id), numeric: true },
      { header: 'State', cell: (j) => stateBadge(j.state) },
      { header: 'Entrypoint', cell: (j) => j.entrypoint },
      { header: 'Priority', cell: (j) => j.priority, numeric: true },
      { header: 'Attempts', cell: (j) => j.attempts, numeric: true },
      { header: 'Age', cell: (j) => formatAge(j.ageSeconds), numeric: true },
      { header: 'Due in', cell: (j) => (j.state === 'scheduled' ? formatAge(j.dueInSeconds) : ''), numeric: true },
      { header: 'Last error', cell: (j) => (j.lastError ? html`<span class="error-line">${j.lastError.split('\n')[0]}</span>` : '') },
    ],
    'no live jobs match',
  )
}

type StoryDoc = ReturnType<typeof jobStoryJson>

export function storyBody(doc: StoryDoc, csrf: string, readOnly: boolean): Html {
  const j = doc.job
  const held = doc.state === 'held'
  return html`<p>${stateBadge(doc.state)} ${j?.entrypoint ?? doc.log.at(-1)?.entrypoint ?? ''}</p>
${
  j
    ? html`<dl class="facts"><dt>Status</dt><dd>${j.status}</dd><dt>Priority</dt><dd>${j.priority}</dd><dt>Attempts</dt><dd>${j.attempts}</dd><dt>Cycles</dt><dd>${j.cycles}</dd>
<dt>Dedupe key</dt><dd>${j.dedupeKey ?? '-'}</dd><dt>Created</dt><dd>${j.created}</dd><dt>Updated</dt><dd>${j.updated}</dd><dt>Due</dt><dd>${j.executeAfter}</dd>
<dt>Held by</dt><dd>${doc.holder ? (doc.holder.registered ? `${doc.holder.host} pid ${doc.holder.pid}, heartbeat ${formatAge(doc.holder.heartbeatAgeSeconds)} ago (${doc.holder.alive ? 'alive' : 'gone'})` : `queue manager ${doc.holder.queueManagerId} (not an aizk worker)`) : '-'}</dd>
${doc.lastError ? html`<dt>Last error</dt><dd class="error-line">${describeError(doc.lastError)}</dd>` : ''}</dl>`
    : html`<p>The row is gone: finished jobs keep only their log rows until <code>aizk prune</code>.</p>`
}
${held && !readOnly ? html`<div class="bar">${actionForm('/actions/held', csrf, { ids: doc.id, action: 'requeue', back: `/jobs/${doc.id}` }, 'Requeue this job')} ${actionForm('/actions/held', csrf, { ids: doc.id, action: 'discard', back: `/jobs/${doc.id}` }, 'Discard this job', { danger: true, confirm: `Delete job ${doc.id} for good?` })}</div>` : ''}
${doc.payload ? html`<h2>Payload (${doc.payload.bytes} bytes, ${doc.payload.encoding}${doc.payload.truncated ? ', cut' : ''})</h2><pre>${doc.payload.text}</pre>` : ''}
${doc.headers ? html`<h2>Headers</h2><pre>${JSON.stringify(doc.headers, null, 2)}</pre>` : ''}
<h2>Log</h2>${table(
    'Log rows',
    doc.log,
    [
      { header: 'At', cell: (l) => l.created },
      { header: 'Status', cell: (l) => l.status },
      { header: 'Priority', cell: (l) => l.priority, numeric: true },
      { header: 'Traceback', cell: (l) => tracebackText(l.traceback) },
    ],
    'no rows yet (a job writes its log row when it finishes or is held)',
  )}`
}

export function schedulesBody(stats: DashboardStats): Html {
  const now = Date.parse(stats.generatedAt)
  return table(
    'Schedules',
    stats.schedules,
    [
      { header: 'Entrypoint', cell: (s) => html`${s.entrypoint}${s.foreign ? html` <span class="foreign">foreign</span>` : ''}` },
      { header: 'Cron', cell: (s) => html`<code class="nowrap">${s.expression}</code>` },
      { header: 'Next fire', cell: (s) => `${when(s.nextRun)} (in ${formatAge((Date.parse(s.nextRun) - now) / 1000)})` },
      { header: 'Last fire', cell: (s) => (s.lastRun ? `${when(s.lastRun)} (${ago(s.lastRun, now)} ago)` : 'never') },
      { header: 'Enabled', cell: (s) => (s.enabled === null ? 'unknown here' : s.enabled ? 'yes' : 'no') },
      { header: 'Overdue', cell: (s) => (s.overdue ? 'yes' : 'no') },
    ],
    'no schedule rows (a worker with its scheduler writes them)',
  )
}

export function scopesBody(sets: RosterEntry[], stats: DashboardStats): Html {
  const gates = stats.memory?.gates ?? []
  return html`${table(
    'Scope sets (the roster)',
    sets,
    [
      { header: 'Scopes', cell: (r) => html`<code>${r.scopes.join(', ')}</code>` },
      { header: 'Documents', cell: (r) => formatCount(r.documents), numeric: true },
      { header: 'Session items', cell: (r) => formatCount(r.sessionItems), numeric: true },
      { header: 'Artifacts', cell: (r) => formatCount(r.artifacts), numeric: true },
      { header: 'Pending chunks', cell: (r) => formatCount(r.chunksPendingProjection), numeric: true },
      { header: 'Entities', cell: (r) => formatCount(r.entities), numeric: true },
      { header: 'Claims', cell: (r) => formatCount(r.claims), numeric: true },
      { header: 'Communities', cell: (r) => formatCount(r.communities), numeric: true },
      { header: 'Insights', cell: (r) => formatCount(r.insights), numeric: true },
    ],
    'nothing is stored yet',
  )}
<h2>Growth gate: last decisions</h2>${gates.length ? html`<ul>${gates.map((g) => html`<li>${describeGate(g)}</li>`)}</ul>` : html`<p class="empty">no gated pass has decided yet</p>`}`
}

export function errorBody(message: string): Html {
  return html`<p class="flash" role="alert">${message}</p>`
}
