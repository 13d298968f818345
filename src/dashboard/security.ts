/**
 * Who may talk to the dashboard and which requests may change anything: the bind rule
 * (loopback unless authentication is set), token or basic authentication, the Host check that
 * keeps DNS rebinding out, and the same-origin and CSRF checks every action passes.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { isIP } from 'node:net'

export interface DashboardAuth {
  token?: string
  user?: string
  password?: string
}

export const TOKEN_COOKIE = 'aizk_dashboard_token'

export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase()
  if (h === 'localhost' || h === '::1') return true
  return isIP(h) === 4 && h.startsWith('127.')
}

export function hasAuth(auth: DashboardAuth): boolean {
  return Boolean(auth.token || (auth.user && auth.password))
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=')
    if (k !== name) continue
    try {
      return decodeURIComponent(v.join('='))
    } catch {
      return undefined // malformed encoding: no such cookie, so the request is not authenticated by it
    }
  }
  return undefined
}

/** Who the request authenticated as ('anonymous' without auth configured), or null when refused. */
export function authenticate(req: IncomingMessage, auth: DashboardAuth): string | null {
  if (!hasAuth(auth)) return 'anonymous'
  const header = req.headers.authorization ?? ''
  if (auth.token) {
    if (header.startsWith('Bearer ') && same(header.slice(7).trim(), auth.token)) return 'token'
    const c = cookie(req, TOKEN_COOKIE)
    if (c && same(c, auth.token)) return 'token'
  }
  if (auth.user && auth.password && header.startsWith('Basic ')) {
    const [user, ...rest] = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8').split(':')
    if (same(user, auth.user) && same(rest.join(':'), auth.password)) return `user ${auth.user}`
  }
  return null
}

/** The token given once in the address (?token=...), to be turned into a cookie. */
export function tokenFromQuery(url: URL, auth: DashboardAuth): boolean {
  const t = url.searchParams.get('token')
  return Boolean(auth.token && t && same(t, auth.token))
}

/** An action's Origin (or, without one, Referer) must be this dashboard's own. */
export function sameOrigin(req: IncomingMessage): boolean {
  const host = (req.headers.host ?? '').toLowerCase()
  const from = req.headers.origin ?? req.headers.referer
  if (!from || from === 'null') return false
  try {
    const u = new URL(from)
    return u.protocol === 'http:' && u.host.toLowerCase() === host
  } catch {
    return false
  }
}

export function newCsrfToken(): string {
  return randomBytes(24).toString('base64url')
}

export function csrfMatches(given: string | undefined, expected: string): boolean {
  return typeof given === 'string' && same(given, expected)
}
