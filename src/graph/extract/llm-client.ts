/**
 * A chat completion over an OpenAI-compatible endpoint (POST {AIZK_LLM_URL}/chat/completions).
 * Transport failures and 5xx/429 answers throw plain errors (the queue retries them with
 * backoff); a 4xx that no retry can mend throws PermanentJobError so the job is held at once.
 * Every request of the process (extraction, profiles, community reports, summaries) waits for one
 * of AIZK_LLM_CONCURRENCY slots first.
 */
import { PermanentJobError } from '../../permanent-error.js'
import { withLlmSlot } from './llm-slots.js'

export interface LlmSettings {
  llmUrl?: string
  llmModel: string
  llmApiKey?: string
  llmTimeoutSeconds: number
  /** Requests in flight in this process at most (AIZK_LLM_CONCURRENCY); unset: 4. */
  llmConcurrency?: number
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

export async function chatCompletion(settings: LlmSettings, messages: ChatMessage[], signal?: AbortSignal): Promise<string> {
  if (!settings.llmUrl) throw new PermanentJobError('no chat endpoint is configured (set AIZK_LLM_URL)')
  const url = `${settings.llmUrl.replace(/\/+$/, '')}/chat/completions`
  return withLlmSlot(settings.llmConcurrency ?? 4, () => request(url, settings, messages, signal))
}

async function request(url: string, settings: LlmSettings, messages: ChatMessage[], signal?: AbortSignal): Promise<string> {
  const timeout = AbortSignal.timeout(settings.llmTimeoutSeconds * 1000)
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(settings.llmApiKey ? { authorization: `Bearer ${settings.llmApiKey}` } : {}),
    },
    body: JSON.stringify({ model: settings.llmModel, messages, temperature: 0, response_format: { type: 'json_object' } }),
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  })
  const body = await res.text()
  if (!res.ok) {
    const message = `chat endpoint ${url} answered ${res.status}: ${body.slice(0, 500)}`
    if (res.status >= 500 || res.status === 429) throw new Error(message)
    throw new PermanentJobError(`${message} (check AIZK_LLM_MODEL and AIZK_LLM_API_KEY)`)
  }
  let content: unknown
  try {
    content = JSON.parse(body)?.choices?.[0]?.message?.content
  } catch {
    content = undefined
  }
  if (typeof content !== 'string') throw new Error(`chat endpoint ${url} answered without choices[0].message.content: ${body.slice(0, 500)}`)
  return content
}
