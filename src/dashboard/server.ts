/**
 * `aizk dashboard`'s HTTP server on node:http: the pages, their two assets, the event stream and
 * the actions. Every request passes authentication (when set) and the Host check; every action
 * is a same-origin POST carrying the page's CSRF token, and none runs in read-only mode.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { AizkError, NotFoundError, UsageError } from '../errors.js'
import { checkEntrypointName } from '../operator/entrypoints.js'
import { readAge, readPriority } from '../operator/job-filter-input.js'
import { jobInventory } from '../operator/job-inventory.js'
import { jobStoryJson } from '../operator/job-story-view.js'
import { jobId } from '../operator/numbers.js'
import { readJobStory } from '../queue/job-story.js'
import { JOB_STATES, type JobState, listJobs } from '../queue/list-jobs.js'
import { readOutcomes } from '../queue/recent-outcomes.js'
import { rosterCounts } from '../scope/roster-counts.js'
import { runAction } from './actions.js'
import { CSS, JS } from './assets.js'
import { type DashboardContext, loadStats } from './context.js'
import { renderHeld } from './held-route.js'
import { type Html, type PageFrame, page } from './html.js'
import { listenError, listenHost } from './listen.js'
import { LiveHub, oldestWait, throughputChart } from './live.js'
import { type EntrypointRow, entrypointsBody, errorBody, type JobsFilter, jobsBody, overviewBody, schedulesBody, scopesBody, storyBody } from './pages.js'
import { authenticate, csrfMatches, type DashboardAuth, hasAuth, isLoopback, sameOrigin, TOKEN_COOKIE, tokenFromQuery } from './security.js'
import { readStateCounts } from './state-counts.js'

export interface DashboardOptions {
  host: string
  port: number
  auth: DashboardAuth
}

export interface RunningDashboard {
  url: string
  server: Server
  hub: LiveHub
  close(): Promise<void>
}

const MAX_BODY = 256 * 1024
const PAGE_LIMIT_MAX = 200

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
}

/** Refuse to listen beyond loopback without authentication (a usage error, exit 2). */
export function checkBind(host: string, auth: DashboardAuth): void {
  if (!isLoopback(host) && !hasAuth(auth)) {
    throw new UsageError(
      `refusing to serve the dashboard on ${host} without authentication`,
      'set AIZK_DASHBOARD_TOKEN, or AIZK_DASHBOARD_USER and AIZK_DASHBOARD_PASSWORD, or keep the default --host 127.0.0.1',
    )
  }
}

export async function startDashboard(ctx: DashboardContext, opts: DashboardOptions): Promise<RunningDashboard> {
  checkBind(opts.host, opts.auth)
  const hub = new LiveHub(ctx)
  let allowedHosts = new Set<string>()
  const server = createServer((req, res) => {
    handle(ctx, hub, opts, allowedHosts, req, res).catch((err) => {
      if (!res.headersSent)
        send(res, 500, 'text/html; charset=utf-8', page(frame(ctx, 'Error', ''), errorBody(`the dashboard failed: ${(err as Error).message}`)))
      else res.end()
    })
  })
  server.keepAliveTimeout = 5000
  const host = listenHost(opts.host)
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(listenError(err, host, opts.port)))
    server.listen(opts.port, host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const shownHost = host.includes(':') ? `[${host}]` : host
  allowedHosts = new Set([`${shownHost}:${port}`.toLowerCase()])
  if (isLoopback(host)) for (const h of ['127.0.0.1', 'localhost', '[::1]']) allowedHosts.add(`${h}:${port}`)
  return {
    url: `http://${shownHost}:${port}/`,
    server,
    hub,
    close: async () => {
      hub.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...SECURITY_HEADERS, ...headers })
  res.end(body)
}

function frame(ctx: DashboardContext, title: string, path: string, flash?: string | null): PageFrame {
  return { title, path, csrf: ctx.csrf, readOnly: ctx.readOnly, flash }
}

/** The request's body as text, or null when it is longer than MAX_BODY (the rest is not read). */
async function readBody(req: IncomingMessage): Promise<string | null> {
  let size = 0
  const chunks: Buffer[] = []
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY) return null
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

const OWN_ORIGIN = 'http://dashboard'

/**
 * Where to go back to after an action: a path of this dashboard, as the URL parser resolves it
 * (`/.//evil.example/x` resolves to `//evil.example/x`, which a browser reads as another host);
 * anything else goes to the overview.
 */
function withFlash(back: string | null, message: string, ok: boolean): string {
  let u = new URL('/', OWN_ORIGIN)
  if (back?.startsWith('/') && !back.startsWith('//') && !back.includes('\\')) {
    const resolved = new URL(back, OWN_ORIGIN)
    if (resolved.origin === OWN_ORIGIN && !resolved.pathname.startsWith('//')) u = resolved
  }
  u.searchParams.set(ok ? 'done' : 'failed', message)
  return `${u.pathname}${u.search}`
}

async function handle(
  ctx: DashboardContext,
  hub: LiveHub,
  opts: DashboardOptions,
  allowedHosts: Set<string>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', OWN_ORIGIN)
  if (!hasAuth(opts.auth) && !allowedHosts.has((req.headers.host ?? '').toLowerCase())) {
    return send(res, 421, 'text/plain; charset=utf-8', 'unknown Host: open the dashboard by the address it printed\n')
  }
  if (req.method === 'GET' && tokenFromQuery(url, opts.auth)) {
    url.searchParams.delete('token')
    return send(res, 303, 'text/plain; charset=utf-8', '', {
      location: `${url.pathname}${url.search}`,
      'set-cookie': `${TOKEN_COOKIE}=${encodeURIComponent(opts.auth.token ?? '')}; HttpOnly; SameSite=Strict; Path=/`,
    })
  }
  const who = authenticate(req, opts.auth)
  if (who === null) {
    return send(res, 401, 'text/plain; charset=utf-8', 'authentication required: a bearer token, the address with ?token=..., or basic auth\n', {
      ...(opts.auth.user ? { 'www-authenticate': 'Basic realm="aizk dashboard", charset="UTF-8"' } : {}),
    })
  }
  if (req.method === 'POST') return action(ctx, req, res, url, who)
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain; charset=utf-8', 'method not allowed\n', { allow: 'GET, HEAD, POST' })

  if (url.pathname === '/assets/app.css') return send(res, 200, 'text/css; charset=utf-8', CSS, { 'cache-control': 'max-age=300' })
  if (url.pathname === '/assets/app.js') return send(res, 200, 'text/javascript; charset=utf-8', JS, { 'cache-control': 'max-age=300' })
  if (url.pathname === '/events') {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v)
    return hub.add(res)
  }
  const flash = url.searchParams.get('done') ?? url.searchParams.get('failed')
  try {
    const body = await render(ctx, hub, url)
    if (!body) return send(res, 404, 'text/html; charset=utf-8', page(frame(ctx, 'Not found', ''), errorBody(`no page ${url.pathname}`)))
    return send(res, 200, 'text/html; charset=utf-8', page(frame(ctx, body.title, body.nav, flash), body.html))
  } catch (err) {
    if (!(err instanceof AizkError)) throw err
    const status = err.exitCode === 5 ? 404 : 400
    return send(
      res,
      status,
      'text/html; charset=utf-8',
      page(frame(ctx, 'Cannot show that', ''), errorBody(`${err.message}${err.hint ? `: ${err.hint}` : ''}`)),
    )
  }
}

async function action(ctx: DashboardContext, req: IncomingMessage, res: ServerResponse, url: URL, who: string): Promise<void> {
  if (ctx.readOnly) return send(res, 403, 'text/plain; charset=utf-8', 'read-only dashboard: actions are off\n')
  if (!sameOrigin(req)) return send(res, 403, 'text/plain; charset=utf-8', "cross-origin request refused: actions come only from the dashboard's own pages\n")
  const body = await readBody(req)
  if (body === null) return send(res, 413, 'text/plain; charset=utf-8', `request body too large: at most ${MAX_BODY} bytes\n`, { connection: 'close' })
  const form = new URLSearchParams(body)
  if (!csrfMatches(form.get('_csrf') ?? undefined, ctx.csrf))
    return send(res, 403, 'text/plain; charset=utf-8', 'missing or wrong CSRF token: reload the page and try again\n')
  const name = url.pathname.startsWith('/actions/') ? url.pathname.slice('/actions/'.length) : ''
  const by = `dashboard ${who} from ${req.socket.remoteAddress ?? '?'}`
  const result = await runAction(ctx, name, form, by)
  if (!result.ok) ctx.log('dashboard:refused', { action: name, by, reason: result.message })
  return send(res, 303, 'text/plain; charset=utf-8', `${result.message}\n`, { location: withFlash(form.get('back'), result.message, result.ok) })
}

function jobsFilter(url: URL): { filter: JobsFilter; after?: string; olderThanSeconds?: number; priorities?: number[] } {
  const q = (k: string) => {
    const v = url.searchParams.get(k)?.trim()
    return v ? v : undefined
  }
  const state = q('state')
  if (state && !(JOB_STATES as readonly string[]).includes(state)) throw new UsageError(`no state "${state}"`, `states are ${JOB_STATES.join(', ')}`)
  const entrypoint = q('entrypoint')
  if (entrypoint) checkEntrypointName(entrypoint)
  const priority = q('priority')
  const priorities = priority ? [readPriority(priority, 'priority')] : undefined
  const older = q('older')
  const olderThanSeconds = older ? readAge(older, 'age') : undefined
  const limitText = q('limit') ?? '50'
  const limit = /^\d{1,4}$/.test(limitText) ? Number(limitText) : Number.NaN
  if (!Number.isInteger(limit) || limit < 1 || limit > PAGE_LIMIT_MAX)
    throw new UsageError(`per page "${limitText}" is out of range`, `use 1 to ${PAGE_LIMIT_MAX}`)
  const afterText = q('after')
  return {
    filter: { state, entrypoint, priority, olderThan: older, limit },
    after: afterText ? jobId(afterText, 'after') : undefined,
    olderThanSeconds,
    priorities,
  }
}

/** A path segment percent-decoded; malformed encoding (`%E0%A4%A`) is the client's error. */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw new UsageError(`"${segment}" is not valid percent-encoding`, 'encode the path as UTF-8')
  }
}

function knownEntrypoints(ctx: DashboardContext, fromStats: string[]): string[] {
  return [...new Set([...jobInventory(ctx.settings).map((r) => r.entrypoint), ...fromStats])].sort()
}

async function render(ctx: DashboardContext, hub: LiveHub, url: URL): Promise<{ title: string; nav: string; html: Html } | null> {
  const p = url.pathname
  if (p === '/') {
    const stats = await loadStats(ctx)
    if (hub.listeners === 0) hub.sample(stats)
    const recent = await readOutcomes(ctx.pool, null, 15)
    return {
      title: 'Overview',
      nav: '/',
      html: overviewBody(
        stats,
        await readStateCounts(ctx.pool),
        { throughput: throughputChart(stats), latency: hub.latencyChart() },
        recent,
        oldestWait(stats),
      ),
    }
  }
  if (p === '/entrypoints') {
    const stats = await loadStats(ctx)
    const inventory = jobInventory(ctx.settings)
    const names = knownEntrypoints(ctx, [...stats.entrypoints.map((e) => e.entrypoint), ...stats.paused.map((x) => x.entrypoint)])
    const rows: EntrypointRow[] = names.map((entrypoint) => {
      const paused = stats.paused.find((x) => x.entrypoint === entrypoint)
      return {
        entrypoint,
        inventory: inventory.find((r) => r.entrypoint === entrypoint) ?? null,
        stats: stats.entrypoints.find((e) => e.entrypoint === entrypoint) ?? null,
        paused: paused ? { pausedAt: paused.pausedAt, pausedBy: paused.pausedBy } : null,
      }
    })
    return { title: 'Entrypoints', nav: '/entrypoints', html: entrypointsBody(rows, ctx.csrf, ctx.readOnly) }
  }
  if (p === '/held' || p === '/held/confirm') return renderHeld(ctx, url)
  if (p === '/jobs') {
    const { filter, after, olderThanSeconds, priorities } = jobsFilter(url)
    const state = filter.state as JobState | undefined
    const jobsPage = await listJobs(ctx.pool, {
      state,
      entrypoints: filter.entrypoint ? [filter.entrypoint] : undefined,
      priorities,
      olderThanSeconds,
      afterId: after,
      limit: filter.limit,
    })
    return { title: 'Jobs', nav: '/jobs', html: jobsBody(jobsPage, filter, knownEntrypoints(ctx, []), await readStateCounts(ctx.pool)) }
  }
  const story = /^\/jobs\/([^/]+)$/.exec(p)
  if (story) {
    const id = jobId(decodedSegment(story[1]), 'job id')
    const s = await readJobStory(ctx.pool, id, ctx.settings.heartbeatTimeoutSeconds)
    if (!s) throw new NotFoundError(`no job ${id}: not in the queue and no log row`, 'finished jobs keep their log rows only until `aizk prune` trims them')
    return { title: `Job ${id}`, nav: '/jobs', html: storyBody(jobStoryJson(s, false), ctx.csrf, ctx.readOnly) }
  }
  if (p === '/schedules') return { title: 'Schedules', nav: '/schedules', html: schedulesBody(await loadStats(ctx)) }
  if (p === '/scopes') {
    const stats = await loadStats(ctx)
    return { title: 'Scope sets', nav: '/scopes', html: scopesBody(await rosterCounts(ctx.pool, ctx.settings), stats) }
  }
  return null
}
