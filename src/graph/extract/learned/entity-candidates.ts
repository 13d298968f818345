/**
 * A chunk read as far as its candidate names (docs/memory-graph.md, "A learned layer, scored
 * leaving one package out"): prose, sentences, the rules' mentions and entities
 * (name-spans.ts), and each entity's features. The extractor and the training both read chunks
 * through here, so a model is trained on exactly what it later judges.
 */
import { findMentions, type Mention, type NamedEntity, resolveMentions } from '../name-spans.js'
import { proseBlocks } from '../prose-blocks.js'
import { type Sentence, sentencesOf } from '../sentence-terms.js'
import { entityFeatures } from './entity-features.js'

export interface Candidate {
  entity: NamedEntity
  features: string[]
}

export interface ReadChunk {
  blocks: string[]
  sentences: Sentence[]
  mentions: Mention[]
  entities: NamedEntity[]
  keyOf: Map<Mention, string>
  candidates: Candidate[]
}

export function readChunk(text: string): ReadChunk {
  const blocks = proseBlocks(text)
  const sentences: Sentence[] = blocks.flatMap(sentencesOf)
  const mentions = findMentions(sentences)
  const { entities, keyOf } = resolveMentions(sentences, mentions)
  const lowerCase = new Set(sentences.flatMap((s) => s.filter((t) => /^\p{Ll}/u.test(t.text)).map((t) => t.normal)))
  const byKey = new Map<string, Mention[]>()
  for (const m of mentions) {
    const key = keyOf.get(m)
    if (key) byKey.set(key, [...(byKey.get(key) ?? []), m])
  }
  const candidates = entities.map((entity) => ({ entity, features: entityFeatures(sentences, entity, byKey.get(entity.key) ?? [], lowerCase) }))
  return { blocks, sentences, mentions, entities, keyOf, candidates }
}
