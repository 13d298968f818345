/**
 * The built-in extractor: compromise (an English NLP library, no service, no model download)
 * over the chunk's prose (prose-blocks.ts: Markdown parsed, markup, code and navigation left
 * out). Entities are proper names, validated and folded within the chunk (name-spans.ts); claims
 * are the relations each sentence states between them, or from a name to a noun phrase
 * (sentence-relations.ts). A definite "the project" / "the language" in a subject or object names
 * the last entity whose name carries that word ("the Debian Project"), or that the chunk wrote it
 * after ("the Python language"). Each entity carries the first sentence that says what it is as
 * its description. This is CPU work: the worker runs it on a thread pool (extract-pool.ts),
 * never on its event loop.
 */
import { acronymClaims } from './acronym-claims.js'
import { type ClaimTime, claimTimes } from './claim-times.js'
import { codenameClaims } from './codename-pairs.js'
import { currentValueClaims } from './current-values.js'
import type { Extraction } from './extraction.js'
import { type ClaimSource, claimFeatures, type SubjectVia } from './learned/claim-features.js'
import { keepsClaim, type LearnedLayer, shippedLayer } from './learned/claim-model.js'
import { type ReadChunk, readChunk } from './learned/entity-candidates.js'
import { type EntityModel, judgeCandidate } from './learned/entity-model.js'
import type { Mention } from './name-spans.js'
import { normalizeName } from './normalize.js'
import { type NameAt, type SentenceClaim, sentenceClaims } from './sentence-relations.js'
import { has, type Sentence } from './sentence-terms.js'

export { plainProse } from './prose-blocks.js'

const REFERRING_HEADS = new Set(['project', 'language', 'company', 'team', 'foundation', 'interpreter', 'distribution', 'organization', 'organisation'])
const MAX_DESCRIPTION = 300

type Claim = Extraction['claims'][number]

/** A claim with what the learned layer's claim model sees of it (learned/claim-features.ts). */
export interface FeaturedClaim {
  claim: Claim
  features: string[]
}

/**
 * `layer`: the learned layer (learned/claim-model.ts): its entity model keeps or drops each
 * candidate name and gives its kind, its claim model (when there is one) keeps or drops each
 * claim left; null for the rules alone. Claims are found with the rules' names and kinds; a claim
 * about a dropped name is dropped with it.
 */
export function extractBuiltin(text: string, layer: LearnedLayer | null = shippedLayer): Extraction {
  const model = layer?.claims
  const { entities, claims } = extractFeatured(readChunk(text), layer?.entities ?? null, Boolean(model))
  return { entities, claims: claims.flatMap((c) => (!model || keepsClaim(model, c.features) ? [c.claim] : [])) }
}

/**
 * The rules and the entity model over a read chunk, every claim with its features (none when
 * `withFeatures` is false, for no claim model): what the claim model judges, and is trained on.
 */
export function extractFeatured(
  chunk: ReadChunk,
  model: EntityModel | null,
  withFeatures = true,
): { entities: Extraction['entities']; claims: FeaturedClaim[] } {
  const { blocks, sentences, mentions, entities, keyOf, candidates } = chunk
  const verdicts = new Map(
    candidates.map((c) => [c.entity.key, model ? judgeCandidate(model, c.features) : { keep: true, kind: c.entity.kind, probability: undefined }]),
  )
  const dropped = (key: string) => verdicts.get(key)?.keep === false
  const kindOf = new Map(entities.map((e) => [e.key, e.kind]))
  const nameOf = new Map(entities.map((e) => [e.key, e.name]))

  // Which entity each referring head word points to, as the chunk goes.
  const headOwners = new Map<string, string>()
  const bySentence = new Map<number, Mention[]>()
  for (const m of mentions) bySentence.set(m.sentence, [...(bySentence.get(m.sentence) ?? []), m])

  const claims: FeaturedClaim[] = []
  const featured = (
    claim: Claim,
    source: ClaimSource,
    subject?: string,
    object?: string,
    at?: { s: Sentence; start: number; end?: number; via?: SubjectVia },
  ) => {
    const kindAndKeep = (key: string | undefined) => (key ? { kind: verdicts.get(key)?.kind ?? kindOf.get(key), keep: verdicts.get(key)?.probability } : {})
    const [subjectIs, objectIs] = [kindAndKeep(subject), kindAndKeep(object)]
    const context = { ...claim, source, subjectKind: subjectIs.kind, subjectKeep: subjectIs.keep, objectKind: objectIs.kind, objectKeep: objectIs.keep }
    const where = at ? { sentence: at.s, subjectAt: at.start, subjectEnd: at.end, subjectVia: at.via } : {}
    claims.push({ claim, features: withFeatures ? claimFeatures({ ...context, ...where }) : [] })
  }
  const described = new Map<string, string>()
  let lastPerson: string | undefined
  let lastTopic: string | undefined
  let leadPerson: string | undefined
  sentences.forEach((s, n) => {
    const names: NameAt[] = []
    const via = new Map<number, SubjectVia>()
    const topic = lastTopic
    lastTopic = undefined
    // "He" is a person named earlier in the sentence, else the one the previous sentence led with, else the last one named.
    const previousLead = leadPerson ?? lastPerson
    let personHere: string | undefined
    leadPerson = undefined
    const own = bySentence.get(n) ?? []
    for (let i = 0; i < s.length; i++) {
      const m = own.find((x) => x.start === i)
      if (m) {
        const key = keyOf.get(m)
        if (key) {
          names.push({ start: m.start, end: m.end, key, kind: kindOf.get(key) ?? 'concept' })
          if (kindOf.get(key) === 'person') {
            lastPerson = key
            leadPerson ??= key
            personHere = key
          }
          for (const w of m.surface.toLowerCase().split(/\s+/)) if (REFERRING_HEADS.has(w)) headOwners.set(w, key)
          const after = s[m.end]
          if (after && REFERRING_HEADS.has(after.normal)) headOwners.set(after.normal, key)
        }
        i = m.end - 1
        continue
      }
      const pronoun = pronounSubject(s, i, personHere ?? previousLead, topic)
      if (pronoun) {
        names.push({ start: i, end: i + 1, key: pronoun, kind: kindOf.get(pronoun) ?? 'concept' })
        via.set(i, 'pronoun')
        continue
      }
      const head = s[i + 1]
      if (s[i].normal === 'the' && head && REFERRING_HEADS.has(head.normal) && headOwners.has(head.normal) && !/^\p{Lu}/u.test(s[i + 2]?.text ?? '')) {
        names.push({ start: i, end: i + 2, key: headOwners.get(head.normal) as string, kind: kindOf.get(headOwners.get(head.normal) as string) ?? 'concept' })
        via.set(i, 'reference')
        i++
      }
    }
    const found = sentenceClaims(s, names)
    const subjectHere = found.find((c) => c.subjectAt <= 1 && kindOf.get(c.subject) !== 'person')?.subject
    lastTopic = subjectHere
    const times = claimTimes(s, found)
    for (const [k, c] of found.entries()) {
      if (dropped(c.subject) || (c.objectIsEntity && dropped(c.object))) continue
      const at = { s, start: c.subjectAt, end: names.find((x) => x.start === c.subjectAt)?.end, via: via.get(c.subjectAt) ?? 'name' }
      featured(timed(asClaim(c, nameOf), times[k]), 'sentence', c.subject, c.objectIsEntity ? c.object : undefined, at)
    }
    const sentenceText = s
      .map((t) => `${t.pre}${t.text}${t.post}`)
      .join('')
      .trim()
    for (const c of found) if (c.predicate === 'be' && !c.objectIsEntity && !described.has(c.subject)) described.set(c.subject, sentenceText)
    for (const x of names) if (!described.has(x.key)) described.set(x.key, sentenceText)
  })

  const acronyms = blocks.flatMap(acronymClaims)
  for (const b of blocks) {
    for (const c of codenameClaims(b)) featured(c, 'codename')
    for (const c of currentValueClaims(b)) featured(c, 'current-value')
  }
  for (const c of acronyms) featured(c, 'acronym')
  // An acronym is the same kind of thing as its expansion ("FSF", like the Free Software Foundation, an organisation).
  const kept = entities.filter((e) => !dropped(e.key))
  const kindOfKept = (e: (typeof entities)[number]) => verdicts.get(e.key)?.kind ?? e.kind
  const kindByName = new Map(kept.map((e) => [normalizeName(e.name), kindOfKept(e)]))
  const acronymEntities = acronyms.flatMap((c) => {
    const kind = kindByName.get(normalizeName(c.object))
    return kind ? [{ name: c.subject, kind }] : []
  })

  return {
    entities: kept
      .flatMap((e) => {
        const description = described.get(e.key)?.slice(0, MAX_DESCRIPTION)
        return Array.from({ length: e.mentions }, () => ({ name: e.name, kind: kindOfKept(e), ...(description ? { description } : {}) }))
      })
      .concat(acronymEntities),
    claims,
  }
}

/**
 * "He" or "she" as a subject names the last person the chunk mentioned; "it" names what the
 * previous sentence made a claim about, when that was not a person.
 */
function pronounSubject(s: Sentence, i: number, lastPerson: string | undefined, topic: string | undefined): string | undefined {
  const next = s[i + 1]
  if (!next || !has(next, 'Verb', 'Auxiliary', 'Copula', 'Modal', 'Adverb')) return undefined
  if (s[i].normal === 'he' || s[i].normal === 'she') return lastPerson
  if (s[i].normal === 'it' && (i === 0 || /[,;:]/.test(s[i - 1].post))) return topic
  return undefined
}

/** The claim with the time its own phrases give (claim-times.ts), when the sentence has any. */
function timed(claim: Claim, time: ClaimTime | undefined): Claim {
  if (!time) return claim
  const { when: _sentenceDate, ...rest } = claim
  return { ...rest, ...time }
}

function asClaim(c: SentenceClaim, nameOf: Map<string, string>): Claim {
  return {
    subject: nameOf.get(c.subject) ?? c.subject,
    predicate: c.predicate,
    object: c.objectIsEntity ? (nameOf.get(c.object) ?? c.object) : c.object,
    objectIsEntity: c.objectIsEntity,
    ...(c.when ? { when: c.when } : {}),
  }
}
