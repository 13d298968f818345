/**
 * One local stand-in for an OpenAI-compatible API on 127.0.0.1: POST /v1/embeddings (a 32-wide
 * hashed bag of words, so texts sharing words point the same way) and POST /v1/chat/completions
 * (a JSON answer built from the prompt: {"summary"} or {"title","summary"}), in the API's shapes.
 * `failEmbeddings` answers 503 that many times first.
 */
import { type FakeServer, startFakeServer } from '../inventory/fake-services.js'
import { chatBody } from './fake-llm.js'

export const DIMENSIONS = 32

export function bagOfWords(text: string): number[] {
  const v = new Array(DIMENSIONS).fill(0)
  for (const word of text.toLowerCase().match(/[a-z]{3,}/g) ?? []) {
    let h = 0
    for (let i = 0; i < word.length; i++) h = (h * 31 + word.charCodeAt(i)) >>> 0
    v[h % DIMENSIONS] += 1
  }
  v[0] += 0.01
  return v
}

export interface StandIn extends FakeServer {
  embedded: number
  chats: number
}

export async function startStandIn(opts: { failEmbeddings?: number } = {}): Promise<StandIn> {
  let failures = opts.failEmbeddings ?? 0
  const counters = { embedded: 0, chats: 0 }
  const server = await startFakeServer((req) => {
    const body = req.body.length ? JSON.parse(req.body.toString()) : {}
    if (req.method === 'POST' && req.path === '/v1/embeddings') {
      if (failures > 0) {
        failures--
        return { status: 503, body: { error: { message: 'overloaded' } } }
      }
      const input = body.input as string[]
      counters.embedded += input.length
      return {
        status: 200,
        body: {
          object: 'list',
          model: body.model,
          data: input.map((t, index) => ({ object: 'embedding', index, embedding: bagOfWords(t) })),
          usage: { prompt_tokens: 1, total_tokens: 1 },
        },
      }
    }
    if (req.method === 'POST' && req.path === '/v1/chat/completions') {
      counters.chats++
      const messages = body.messages as { role: string; content: string }[]
      const prompt = messages.at(-1)?.content ?? ''
      const words = prompt
        .replace(/\[\d+\]/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .split(' ')
        .slice(0, 12)
        .join(' ')
      const wantsTitle = /"title"/.test(messages[0]?.content ?? '')
      const answer = wantsTitle ? { title: `About ${words.slice(0, 40)}`, summary: `Model report: ${words}` } : { summary: `Model summary: ${words}` }
      return { status: 200, body: chatBody(JSON.stringify(answer), body.model) }
    }
    return { status: 404, body: { error: { message: 'Not Found' } } }
  })
  Object.defineProperties(server, {
    embedded: { get: () => counters.embedded },
    chats: { get: () => counters.chats },
  })
  return server as StandIn
}
