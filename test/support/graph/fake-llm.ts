/**
 * A local stand-in for an OpenAI-compatible chat endpoint: POST /chat/completions answered in
 * the API's shape (choices[0].message.content), from a queue of canned contents, including
 * malformed ones and HTTP failures. It checks the request's model and bearer token.
 */
import { type FakeServer, startFakeServer } from '../inventory/fake-services.js'

export type CannedAnswer = string | { status: number; body: unknown }

export function chatBody(content: string, model = 'test-model') {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  }
}

export function startFakeLlm(answers: CannedAnswer[] | ((prompt: string) => CannedAnswer), opts: { apiKey?: string } = {}): Promise<FakeServer> {
  const queue = Array.isArray(answers) ? [...answers] : null
  return startFakeServer((req) => {
    if (req.method !== 'POST' || req.path !== '/chat/completions') return { status: 404, body: { error: { message: 'Not Found' } } }
    if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
      return { status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } }
    }
    const request = JSON.parse(req.body.toString()) as { model: string; messages: { role: string; content: string }[] }
    const prompt = request.messages.at(-1)?.content ?? ''
    const next = queue ? queue.shift() : (answers as (p: string) => CannedAnswer)(prompt)
    if (next === undefined) return { status: 500, body: { error: { message: 'no canned answer left' } } }
    if (typeof next !== 'string') return next
    return { status: 200, body: chatBody(next, request.model) }
  })
}
