/**
 * A community's title and summary. Extractive, written by every rebuild: the title names the
 * relation most of its strongest claims share ("Who led Debian"), else its most connected
 * members; the summary is one paragraph stating those claims, a shared relation once
 * (community-text.ts). With a chat
 * endpoint configured, community-reports.ts later asks the model for a GraphRAG-style report
 * from the same facts (a title, a summary and findings, each finding a short summary with its
 * explanation); an answer that is not the JSON asked for leaves the extractive text.
 */
import { z } from 'zod'
import type { Settings } from '../../../settings.js'
import { chatCompletion } from '../../extract/llm-client.js'
import { type CommunityClaim, communityText } from './community-text.js'

export type DescribeSettings = Pick<Settings, 'llmUrl' | 'llmModel' | 'llmApiKey' | 'llmTimeoutSeconds'>

export interface CommunityFacts {
  /** Member names, most connected first. */
  names: string[]
  size: number
  /** Strongest internal claims as sentences, strongest first. */
  sentences: string[]
  /** The same claims, for a title and a summary that state shared relations once (community-text.ts). */
  claims?: CommunityClaim[]
}

export interface Finding {
  summary: string
  explanation: string
}

export interface CommunityReport {
  title: string
  summary: string
  findings: Finding[]
}

export function extractiveDescription(facts: CommunityFacts): { title: string; summary: string } {
  if (facts.claims?.length) return communityText(facts.names, facts.size, facts.claims)
  const top = facts.names.slice(0, 3)
  const title = top.length <= 1 ? (top[0] ?? 'community') : `${top.slice(0, -1).join(', ')} and ${top.at(-1)}`
  const head = `${facts.size} entities around ${title}.`
  const said = [...new Set(facts.sentences.filter(Boolean))]
  return { title, summary: said.length ? `${head} ${said.join(' ')}` : head }
}

const reportSchema = z.object({
  title: z.string().min(1).max(200),
  summary: z.string().min(1).max(4000),
  findings: z
    .array(z.object({ summary: z.string().min(1).max(500), explanation: z.string().min(1).max(2000) }))
    .max(10)
    .default([]),
})

const INSTRUCTIONS =
  'You write a report on a community of related entities for an operator. Use only the facts given. ' +
  'Answer with JSON: {"title": string (a few words naming what the community is about), "summary": string (two or three sentences), ' +
  '"findings": [{"summary": string (one line), "explanation": string (two or three sentences citing the facts)}] (one to five, most important first)}.'

/** The model's report, or null when its answer is not the JSON asked for. */
export async function reportCommunity(settings: DescribeSettings, facts: CommunityFacts, signal?: AbortSignal): Promise<CommunityReport | null> {
  const answer = await chatCompletion(
    settings,
    [
      { role: 'system', content: INSTRUCTIONS },
      { role: 'user', content: `Members: ${facts.names.slice(0, 20).join(', ')}\nFacts:\n${facts.sentences.map((s) => `- ${s}`).join('\n')}` },
    ],
    signal,
  )
  try {
    return reportSchema.parse(JSON.parse(answer))
  } catch {
    return null
  }
}
