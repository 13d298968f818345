/**
 * A community's title and summary. Extractive by default: the title names its most connected
 * members, the summary states its strongest claims. With a chat endpoint configured the model
 * writes both from the same claims (GraphRAG's community report, in short); an answer that is
 * not the JSON asked for falls back to the extractive text, so a rebuild never stops on prose.
 */
import { z } from 'zod'
import type { Settings } from '../../../settings.js'
import { chatCompletion } from '../../extract/llm-client.js'

export type DescribeSettings = Pick<Settings, 'llmUrl' | 'llmModel' | 'llmApiKey' | 'llmTimeoutSeconds'>

export interface CommunityFacts {
  /** Member names, most connected first. */
  names: string[]
  size: number
  /** Strongest internal claims as sentences, strongest first. */
  sentences: string[]
}

export function extractiveDescription(facts: CommunityFacts): { title: string; summary: string } {
  const top = facts.names.slice(0, 3)
  const title = top.length <= 1 ? (top[0] ?? 'community') : `${top.slice(0, -1).join(', ')} and ${top.at(-1)}`
  const head = `${facts.size} entities around ${title}.`
  return { title, summary: facts.sentences.length ? `${head} ${facts.sentences.join('; ')}.` : head }
}

const answerSchema = z.object({ title: z.string().min(1).max(200), summary: z.string().min(1).max(4000) })

export async function describeCommunity(settings: DescribeSettings, facts: CommunityFacts, signal?: AbortSignal): Promise<{ title: string; summary: string }> {
  const fallback = extractiveDescription(facts)
  if (!settings.llmUrl || facts.sentences.length === 0) return fallback
  const answer = await chatCompletion(
    settings,
    [
      {
        role: 'system',
        content: 'You write a short report on a community of related entities. Answer with JSON: {"title": string (a few words), "summary": string (two or three sentences)}.',
      },
      { role: 'user', content: `Members: ${facts.names.slice(0, 20).join(', ')}\nFacts:\n${facts.sentences.map((s) => `- ${s}`).join('\n')}` },
    ],
    signal,
  )
  try {
    return answerSchema.parse(JSON.parse(answer))
  } catch {
    return fallback
  }
}
