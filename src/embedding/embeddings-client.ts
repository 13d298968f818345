/**
 * An OpenAI-compatible embeddings client: POST {url}/embeddings with {model, input: [...]},
 * `Authorization: Bearer <key>` when a key is set, answered with {data: [{index, embedding}]}.
 * Texts go in batches; any failure throws, so the job that asked retries as a whole.
 */
export interface EmbeddingsOptions {
  url: string
  model: string
  apiKey?: string
  batchSize?: number
  timeoutMs?: number
  signal?: AbortSignal
}

export class EmbeddingsError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message)
    this.name = 'EmbeddingsError'
  }
}

interface EmbeddingsResponse {
  data?: { index?: number; embedding?: unknown }[]
}

export function embeddingsEndpoint(url: string): string {
  const u = new URL(url)
  if (!/\/embeddings\/?$/.test(u.pathname)) u.pathname = `${u.pathname.replace(/\/+$/, '')}/embeddings`
  return u.toString()
}

/** One vector per text, in order. */
export async function embedTexts(texts: string[], opts: EmbeddingsOptions): Promise<number[][]> {
  const size = Math.max(1, opts.batchSize ?? 64)
  const out: number[][] = []
  for (let i = 0; i < texts.length; i += size) out.push(...(await embedBatch(texts.slice(i, i + size), opts)))
  return out
}

async function embedBatch(input: string[], opts: EmbeddingsOptions): Promise<number[][]> {
  const endpoint = embeddingsEndpoint(opts.url)
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' }
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`
  const signals = [AbortSignal.timeout(opts.timeoutMs ?? 120_000)]
  if (opts.signal) signals.push(opts.signal)
  let response: Response
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: opts.model, input, encoding_format: 'float' }),
      signal: AbortSignal.any(signals),
    })
  } catch (err) {
    throw new EmbeddingsError(`embeddings endpoint ${endpoint} did not answer: ${(err as Error).message}`)
  }
  const text = await response.text()
  if (!response.ok) throw new EmbeddingsError(`embeddings endpoint answered HTTP ${response.status}: ${text.slice(0, 300)}`, response.status)
  let body: EmbeddingsResponse
  try {
    body = JSON.parse(text) as EmbeddingsResponse
  } catch {
    throw new EmbeddingsError('embeddings endpoint answered with something that is not JSON')
  }
  const data = body.data ?? []
  if (data.length !== input.length) throw new EmbeddingsError(`embeddings endpoint returned ${data.length} vectors for ${input.length} texts`)
  const vectors: number[][] = new Array(input.length)
  data.forEach((item, position) => {
    const index = typeof item.index === 'number' ? item.index : position
    const v = item.embedding
    if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw new EmbeddingsError(`embeddings endpoint returned a malformed vector at index ${index}`)
    }
    vectors[index] = v as number[]
  })
  if (vectors.some((v) => v === undefined)) throw new EmbeddingsError('embeddings endpoint returned duplicate or out-of-range indexes')
  return vectors
}
