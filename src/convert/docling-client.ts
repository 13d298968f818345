/**
 * A client for docling-serve's synchronous file endpoint: POST {url}/v1/convert/file as
 * multipart/form-data (`files` = the original, `to_formats` = md), answered with JSON whose
 * `document.md_content` is the Markdown and `status` is success, partial_success, failure or
 * skipped. `X-Api-Key` is sent when a key is configured (docling-serve's DOCLING_SERVE_API_KEY).
 */
import { DoclingError, PermanentJobError } from './errors.js'

export interface DoclingOptions {
  url: string
  apiKey?: string
  timeoutMs?: number
  signal?: AbortSignal
}

interface DoclingResponse {
  document?: { md_content?: string | null; filename?: string }
  status?: string
  errors?: unknown[]
}

export function doclingEndpoint(url: string): string {
  const u = new URL(url)
  if (!/\/v1\/convert\/file\/?$/.test(u.pathname)) u.pathname = `${u.pathname.replace(/\/+$/, '')}/v1/convert/file`
  return u.toString()
}

export async function convertWithDocling(bytes: Buffer, filename: string, mediaType: string, opts: DoclingOptions): Promise<string> {
  const form = new FormData()
  form.append('files', new Blob([bytes], { type: mediaType }), filename)
  form.append('to_formats', 'md')
  form.append('image_export_mode', 'placeholder')
  const headers: Record<string, string> = { accept: 'application/json' }
  if (opts.apiKey) headers['X-Api-Key'] = opts.apiKey
  const signals = [AbortSignal.timeout(opts.timeoutMs ?? 300_000)]
  if (opts.signal) signals.push(opts.signal)
  const endpoint = doclingEndpoint(opts.url)
  let response: Response
  try {
    response = await fetch(endpoint, { method: 'POST', body: form, headers, signal: AbortSignal.any(signals) })
  } catch (err) {
    throw new DoclingError(`docling-serve at ${endpoint} did not answer: ${(err as Error).message}`)
  }
  const body = await response.text()
  if (!response.ok) {
    const detail = body.slice(0, 500)
    // 4xx other than timeouts and rate limits is the file or the request: no retry will help.
    if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) {
      throw new PermanentJobError(`docling-serve rejected ${filename} (HTTP ${response.status}): ${detail}`)
    }
    throw new DoclingError(`docling-serve answered HTTP ${response.status} for ${filename}: ${detail}`, response.status)
  }
  let parsed: DoclingResponse
  try {
    parsed = JSON.parse(body) as DoclingResponse
  } catch {
    throw new DoclingError(`docling-serve answered with something that is not JSON for ${filename}`)
  }
  const markdown = parsed.document?.md_content
  if ((parsed.status === 'success' || parsed.status === 'partial_success') && typeof markdown === 'string') return markdown
  const errors = JSON.stringify(parsed.errors ?? []).slice(0, 500)
  if (parsed.status === 'failure' || parsed.status === 'skipped') {
    throw new PermanentJobError(`docling-serve could not convert ${filename} (status ${parsed.status}): ${errors}`)
  }
  throw new DoclingError(`docling-serve returned no Markdown for ${filename} (status ${parsed.status ?? 'missing'}): ${errors}`)
}
