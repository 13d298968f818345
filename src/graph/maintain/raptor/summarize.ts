/**
 * One RAPTOR summary of a cluster's texts. Abstractive with a chat endpoint configured (the
 * paper's choice); without one, extractive: the leading sentence of each text, in order, up to
 * SUMMARY_CHARS. A model answer that is not the JSON asked for falls back to extractive.
 */
import { z } from 'zod'
import type { Settings } from '../../../settings.js'
import { chatCompletion } from '../../extract/llm-client.js'

export type SummarySettings = Pick<Settings, 'llmUrl' | 'llmModel' | 'llmApiKey' | 'llmTimeoutSeconds'>

/** Length bound of a summary (the model is asked for about as much): a paragraph that still embeds well. */
const SUMMARY_CHARS = 1200

function leadingSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  const end = flat.search(/[.!?](\s|$)/)
  return end > 0 ? flat.slice(0, end + 1) : flat
}

export function extractiveSummary(texts: string[], maxChars: number): string {
  let out = ''
  for (const t of texts) {
    const s = leadingSentence(t)
    if (!s) continue
    const next = out ? `${out} ${s}` : s
    if (next.length > maxChars) return out || s.slice(0, maxChars)
    out = next
  }
  return out || '(empty)'
}

const answerSchema = z.object({ summary: z.string().min(1).max(20000) })

export async function summarizeCluster(settings: SummarySettings, texts: string[], signal?: AbortSignal): Promise<string> {
  const fallback = extractiveSummary(texts, SUMMARY_CHARS)
  if (!settings.llmUrl) return fallback
  const budget = Math.max(2000, SUMMARY_CHARS * 8)
  const passages = texts
    .map((t, i) => `[${i + 1}] ${t}`)
    .join('\n\n')
    .slice(0, budget)
  const answer = await chatCompletion(
    settings,
    [
      {
        role: 'system',
        content: `Summarise the passages into one paragraph of at most ${SUMMARY_CHARS} characters that keeps their key facts. Answer with JSON: {"summary": string}.`,
      },
      { role: 'user', content: passages },
    ],
    signal,
  )
  try {
    return answerSchema.parse(JSON.parse(answer)).summary
  } catch {
    return fallback
  }
}
