/**
 * ProfileProjectionJob's body: rebuild the dirty profiles of one scope set, a batch at a time,
 * each batch taken in one short transaction and stored in another, with no transaction open
 * while the summaries are written (docs/memory-graph.md, "Readable output"). The summary is
 * extractive by default: the entity's strongest live claims as sentences, strongest evidence
 * first. With a chat endpoint configured the model writes it from the same claims, up to
 * `reportConcurrency` requests at once over batches of `reportBatch`; an answer that is not the
 * JSON asked for falls back to the extractive summary. A job stopped midway keeps every batch
 * already stored.
 */
import type pg from 'pg'
import { z } from 'zod'
import type { User } from '../../scope/user.js'
import type { Settings } from '../../settings.js'
import { chatCompletion } from '../extract/llm-client.js'
import { mapLimited } from '../map-limited.js'
import { claimSentence, restatesSubject } from './claim-sentence.js'
import { claimDirtyProfiles, type DirtyProfile, type ProfileClaim, storeProfiles, strongestClaims } from './sql/profile-sql.js'
import { whatItIs } from './what-it-is.js'

export type ProfileSettings = Pick<
  Settings,
  'profileClaims' | 'reportBatch' | 'reportConcurrency' | 'llmUrl' | 'llmModel' | 'llmApiKey' | 'llmTimeoutSeconds' | 'llmMaxAttempts'
>

/** Dirty profiles rebuilt per transaction without a model: sentences from claims are quick, 500 keeps each transaction short. */
const PROFILE_BATCH = 500

const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`)

const sentenceOf = (c: ProfileClaim) => claimSentence(c.subject, c.predicate, c.object, { from: c.validFrom, until: c.validTo })

/**
 * The entity's strongest claims as sentences, each in its tense (a dated claim in the past) and
 * polarity; led by what the entity is, from its description sentence (what-it-is.ts), when no
 * claim says what it is ("X is ..."); with no claim and no description, only how often it is
 * mentioned.
 */
export function extractiveSummary(
  entity: Pick<DirtyProfile, 'name' | 'kind' | 'mentions'> & { description?: string | null },
  claims: readonly ProfileClaim[],
): string {
  const ordered = [...claims].sort((a, b) => b.weight - a.weight || b.sources - a.sources)
  const said = [...new Set(ordered.map(sentenceOf))]
  const saysWhat = claims.some((c) => c.subject === entity.name && /^(not )?be$/.test(c.predicate))
  const what = saysWhat ? undefined : whatItIs(entity.name, entity.description)
  const mentioned = `Mentioned ${times(entity.mentions)}.`
  // A sentence that only names it says less than any claim: quoted only when no claim exists.
  if (what?.quoted && said.length === 0) return `${entity.name} (${entity.kind}): ${what.text} ${mentioned}`
  if (what?.quoted) return [...said, mentioned].join(' ')
  if (what) return [what.text, ...said, mentioned].join(' ')
  if (said.length === 0) return `${entity.name} (${entity.kind}) is mentioned ${times(entity.mentions)}; nothing is claimed about it yet.`
  return [...said, mentioned].join(' ')
}

const modelSummary = z.object({ summary: z.string().min(1).max(4000) })

async function summarize(settings: ProfileSettings, entity: DirtyProfile, claims: ProfileClaim[], signal?: AbortSignal): Promise<string> {
  const fallback = extractiveSummary(entity, claims)
  if (!settings.llmUrl || claims.length === 0) return fallback
  const facts = claims.map((c) => `- ${sentenceOf(c)} (weight ${c.weight.toFixed(2)}, ${c.sources} source(s))`).join('\n')
  const answer = await chatCompletion(
    settings,
    [
      {
        role: 'system',
        content: 'Summarise what is known about an entity in two plain sentences, the best-supported facts first. Answer with JSON: {"summary": string}.',
      },
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

export async function refreshDirtyProfiles(pool: pg.Pool, user: User, settings: ProfileSettings, signal?: AbortSignal): Promise<number> {
  const withModel = Boolean(settings.llmUrl)
  const batch = withModel ? settings.reportBatch : PROFILE_BATCH
  // A taken profile whose rebuild has not stored it by then is taken again.
  const staleSeconds = withModel ? settings.llmTimeoutSeconds * settings.llmMaxAttempts + 60 : 300
  let total = 0
  for (;;) {
    signal?.throwIfAborted()
    const { dirty, claims } = await user.transaction(pool, async (db) => {
      const dirty = await claimDirtyProfiles(db, user.write, batch, staleSeconds)
      const ids = dirty.map((d) => d.entityId)
      return { dirty, claims: await strongestClaims(db, user.write, ids, settings.profileClaims) }
    })
    if (dirty.length === 0) return total
    const rebuilt = await mapLimited(dirty, withModel ? settings.reportConcurrency : 1, async (entity) => {
      const own = claims.filter((c) => c.entityId === entity.entityId && !restatesSubject(c.subject, c.object))
      return { entityId: entity.entityId, summary: await summarize(settings, entity, own, signal), claimIds: own.map((c) => c.claimId) }
    })
    await user.transaction(pool, (db) => storeProfiles(db, user.write, rebuilt))
    total += dirty.length
    if (dirty.length < batch) return total
  }
}
