/**
 * ProfileProjectionJob's body: rebuild the dirty profiles of one scope set, a batch at a time.
 * The summary is extractive by default (the entity's strongest live claims by weight, as
 * sentences); with a chat endpoint configured the model writes it from the same claims, and an
 * answer that is not the JSON asked for falls back to the extractive summary.
 */
import { z } from 'zod'
import type { Queryable } from '../../db/queryable.js'
import type { Settings } from '../../settings.js'
import { chatCompletion } from '../extract/llm-client.js'
import { type DirtyProfile, lockDirtyProfiles, type ProfileClaim, storeProfiles, strongestClaims } from './sql/profile-sql.js'

type ProfileSettings = Pick<Settings, 'profileClaims' | 'profileBatch' | 'llmUrl' | 'llmModel' | 'llmApiKey' | 'llmTimeoutSeconds'>

export function extractiveSummary(entity: Pick<DirtyProfile, 'name' | 'kind' | 'mentions'>, claims: ProfileClaim[]): string {
  const head = `${entity.name} (${entity.kind})`
  if (claims.length === 0) return `${head}: mentioned ${entity.mentions} time(s); no claims yet.`
  return `${head}: ${claims.map((c) => `${c.subject} ${c.predicate} ${c.object}`).join('; ')}.`
}

const modelSummary = z.object({ summary: z.string().min(1).max(4000) })

async function summarize(settings: ProfileSettings, entity: DirtyProfile, claims: ProfileClaim[], signal?: AbortSignal): Promise<string> {
  const fallback = extractiveSummary(entity, claims)
  if (!settings.llmUrl || claims.length === 0) return fallback
  const facts = claims.map((c) => `- ${c.subject} ${c.predicate} ${c.object} (weight ${c.weight.toFixed(2)})`).join('\n')
  const answer = await chatCompletion(
    settings,
    [
      { role: 'system', content: 'Summarise what is known about an entity in two sentences. Answer with JSON: {"summary": string}.' },
      { role: 'user', content: `${entity.name} (${entity.kind})\n${facts}` },
    ],
    signal,
  )
  try {
    return modelSummary.parse(JSON.parse(answer)).summary
  } catch {
    return fallback
  }
}

export async function refreshDirtyProfiles(db: Queryable, scopes: readonly string[], settings: ProfileSettings, signal?: AbortSignal): Promise<number> {
  let total = 0
  for (;;) {
    const dirty = await lockDirtyProfiles(db, scopes, settings.profileBatch)
    if (dirty.length === 0) return total
    const claims = await strongestClaims(
      db,
      scopes,
      dirty.map((d) => d.entityId),
      settings.profileClaims,
    )
    const rebuilt = []
    for (const entity of dirty) {
      const own = claims.filter((c) => c.entityId === entity.entityId)
      rebuilt.push({ entityId: entity.entityId, summary: await summarize(settings, entity, own, signal), claimIds: own.map((c) => c.claimId) })
    }
    await storeProfiles(db, scopes, rebuilt)
    total += dirty.length
    if (dirty.length < settings.profileBatch) return total
  }
}
