/** Plain HTTP requests with full control of the headers (Host, Origin, Cookie) for dashboard tests. */
import http from 'node:http'

export interface Reply {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
}

export function request(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => {
        body += c
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end(opts.body)
  })
}

/** The page's CSRF token (its <meta name="csrf-token">). */
export function csrfOf(page: string): string {
  const m = /<meta name="csrf-token" content="([^"]+)">/.exec(page)
  if (!m) throw new Error('no csrf token on the page')
  return m[1]
}

/** A form POST as the dashboard's own page sends it. */
export function post(base: string, path: string, fields: Record<string, string | string[]>, headers: Record<string, string> = {}): Promise<Reply> {
  const form = new URLSearchParams()
  for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) form.append(k, one)
  return request(new URL(path, base).toString(), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base.replace(/\/$/, ''), ...headers },
    body: form.toString(),
  })
}

/** First SSE event of `name` on `path`, then the connection is closed. */
export function firstEvent(url: string, name: string, headers: Record<string, string> = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume()
        reject(new Error(`SSE answered ${res.statusCode}`))
        return
      }
      let buf = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => {
        buf += c
        for (const block of buf.split('\n\n')) {
          const ev = /^event: (.+)$/m.exec(block)?.[1]
          const data = /^data: (.+)$/m.exec(block)?.[1]
          if (ev === name && data) {
            req.destroy()
            resolve(JSON.parse(data))
            return
          }
        }
      })
    })
    req.on('error', (err) => {
      if (!req.destroyed) reject(err)
    })
  })
}
