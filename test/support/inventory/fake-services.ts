/**
 * Local HTTP servers speaking docling-serve's and an OpenAI-compatible embeddings endpoint's
 * documented shapes, so the clients are tested over real HTTP without the real services.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface SeenRequest {
  method: string
  path: string
  headers: http.IncomingHttpHeaders
  body: Buffer
}

export interface FakeServer {
  url: string
  seen: SeenRequest[]
  close(): Promise<void>
}

type Handler = (req: SeenRequest) => Promise<{ status: number; body: unknown }> | { status: number; body: unknown }

export async function startFakeServer(handler: Handler): Promise<FakeServer> {
  const seen: SeenRequest[] = []
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = []
    req.on('data', (d) => parts.push(d))
    req.on('end', async () => {
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(parts) }
      seen.push(request)
      try {
        const { status, body } = await handler(request)
        res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' })
        res.end(typeof body === 'string' ? body : JSON.stringify(body))
      } catch (err) {
        res.writeHead(500)
        res.end(String(err))
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Parse a multipart request the way docling-serve (FastAPI) would. */
export async function formOf(req: SeenRequest): Promise<FormData> {
  return new Request('http://x/', { method: 'POST', headers: { 'content-type': String(req.headers['content-type']) }, body: req.body }).formData()
}

/** docling-serve's /v1/convert/file: Markdown that names the uploaded file and its size. */
export function startFakeDocling(opts: { apiKey?: string; fail?: 'http500' | 'failure' } = {}): Promise<FakeServer> {
  return startFakeServer(async (req) => {
    if (req.method !== 'POST' || req.path !== '/v1/convert/file') return { status: 404, body: { detail: 'Not Found' } }
    if (opts.apiKey && req.headers['x-api-key'] !== opts.apiKey) return { status: 401, body: { detail: 'Invalid API key' } }
    if (opts.fail === 'http500') return { status: 500, body: 'Internal Server Error' }
    const form = await formOf(req)
    const file = form.get('files')
    if (!(file instanceof Blob) || form.get('to_formats') !== 'md') return { status: 422, body: { detail: 'files and to_formats required' } }
    const name = (file as File).name
    if (opts.fail === 'failure')
      return { status: 200, body: { document: { filename: name, md_content: null }, status: 'failure', errors: [{ error_message: 'bad pdf' }] } }
    const bytes = Buffer.from(await file.arrayBuffer())
    const md = `# ${name}\n\nConverted by docling: ${bytes.length} bytes.\n\n## Section\n\nBody of ${name}.\n`
    return {
      status: 200,
      body: { document: { filename: name, md_content: md, json_content: null }, status: 'success', errors: [], processing_time: 0.01, timings: {} },
    }
  })
}

/** A deterministic 4-dimensional embedding of a text. */
export function fakeVector(text: string): number[] {
  return [text.length, (text.match(/ /g) ?? []).length, text.charCodeAt(0) || 0, 0.5]
}

/** An OpenAI-compatible /v1/embeddings. `failFirst` answers 503 that many times first. */
export function startFakeEmbeddings(opts: { apiKey?: string; failFirst?: number } = {}): Promise<FakeServer & { batches: number[] }> {
  let failures = opts.failFirst ?? 0
  const batches: number[] = []
  return startFakeServer((req) => {
    if (req.method !== 'POST' || req.path !== '/v1/embeddings') return { status: 404, body: { error: { message: 'not found' } } }
    if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`) return { status: 401, body: { error: { message: 'bad key' } } }
    if (failures > 0) {
      failures--
      return { status: 503, body: { error: { message: 'overloaded' } } }
    }
    const { input, model } = JSON.parse(req.body.toString()) as { input: string[]; model: string }
    batches.push(input.length)
    // Shuffled order, as the API allows: clients must place vectors by index.
    const data = input.map((text, index) => ({ object: 'embedding', index, embedding: fakeVector(text) })).reverse()
    return { status: 200, body: { object: 'list', data, model, usage: { prompt_tokens: 1, total_tokens: 1 } } }
  }).then((s) => Object.assign(s, { batches }))
}
