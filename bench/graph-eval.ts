/**
 * `npm run eval:graph`: the memory graph's extraction measured against the project's labeled
 * passages (test/fixtures/graph-eval/passages.json; docs/memory-graph.md, "The evaluation"),
 * for the built-in extractor and for the chat-model extractor against a stand-in replaying
 * recorded answers, on the tuning split and the held-out split. Prints figures, asserts nothing.
 */
import { readFileSync } from 'node:fs'
import { extractBuiltin } from '../src/graph/extract/builtin-extractor.js'
import { cleanExtraction, type Extraction } from '../src/graph/extract/extraction.js'
import { LlmExtractor } from '../src/graph/extract/llm-extractor.js'
import { loadLabeledSet, type Passage } from './graph-eval/labels.js'
import { startRecordedLlm } from './graph-eval/recorded-llm.js'
import { printResolution } from './graph-eval/resolution.js'
import { type Counts, type ScoredClaim, type SplitGraph, scoreCommunities, scoreFunctional, scorePassage, zeroCounts } from './graph-eval/score.js'


const fixtures = new URL('../test/fixtures/graph-eval/', import.meta.url)
const set = loadLabeledSet(new URL('passages.json', fixtures).pathname)
const recorded = JSON.parse(readFileSync(new URL('llm-answers.json', fixtures), 'utf8')) as Record<string, unknown>

const MAX_OBJECTS = 4 // AIZK_INSIGHT_MAX_OBJECTS's default
const RESOLUTION = 1 // AIZK_COMMUNITIES_RESOLUTION's default

const ratio = (a: number, b: number) => (b === 0 ? 'n/a' : (a / b).toFixed(2))

async function evaluate(name: string, extract: (p: Passage) => Promise<Extraction>, covers: (p: Passage) => boolean = () => true) {
  for (const split of ['tune', 'held-out'] as const) {
    const passages = set.passages.filter((p) => p.split === split && covers(p))
    const counts: Counts = zeroCounts()
    const graph: SplitGraph = { claims: [] }
    const raws = await Promise.all(passages.map((p) => extract(p)))
    for (const [i, p] of passages.entries()) {
      const raw = raws[i]
      const clean = cleanExtraction(raw)
      const claims: ScoredClaim[] = clean.claims.map((c) => ({ ...c, when: c.validFrom }))
      scorePassage(p, { ...clean, claims }, counts)
      for (const claim of claims) graph.claims.push({ passage: p, claim })
    }
    const functional = scoreFunctional(set, split, graph, MAX_OBJECTS)
    const comm = scoreCommunities(passages, graph, RESOLUTION)
    const uncovered = set.passages.filter((p) => p.split === split).length - passages.length
    console.log(`\n${name}, ${split} split (${passages.length} passages${uncovered ? `; ${uncovered} without a recorded answer left out; conflicts labeled on them count as missed` : ''})`)
    console.log(`  entities   precision ${ratio(counts.entitiesRight, counts.entitiesOut)} (${counts.entitiesRight}/${counts.entitiesOut})  recall ${ratio(counts.entitiesFound, counts.entitiesLabeled)} (${counts.entitiesFound}/${counts.entitiesLabeled})`)
    console.log(`  claims     precision ${ratio(counts.claimsRight, counts.claimsOut)} (${counts.claimsRight}/${counts.claimsOut})  recall ${ratio(counts.claimsFound, counts.claimsLabeled)} (${counts.claimsFound}/${counts.claimsLabeled})`)
    console.log(`  claims linking two entities ${ratio(counts.claimsLinking, counts.claimsOut)} (${counts.claimsLinking}/${counts.claimsOut});  dated labeled claims found with their date ${counts.datedKept}/${counts.datedLabeled}`)
    for (const [label, f] of [['contradictions', functional.contradictions], ['supersessions ', functional.supersessions]] as const) {
      console.log(`  ${label} precision ${ratio(f.right, f.reported)} (${f.right}/${f.reported})  recall ${ratio(f.right, f.labeled)} (${f.right}/${f.labeled})${f.examples.length ? `: ${f.examples.join('; ')}` : ''}`)
    }
    console.log(`  communities of 3+ coherent: precision ${ratio(comm.coherent, comm.big)} (${comm.coherent}/${comm.big}; ${comm.communities} communities in all)  recall ${ratio(comm.labeledPlaced, comm.labeledInGraph)} (${comm.labeledPlaced}/${comm.labeledInGraph} labeled names)${comm.largest.length ? `; largest: [${comm.largest.join('] [')}]` : ''}`)
  }
}

await evaluate('built-in extractor', async (p) => extractBuiltin(p.text))
const llm = await startRecordedLlm(new Map(set.passages.map((p) => [p.text, recorded[p.id]])))
try {
  const extractor = new LlmExtractor({ llmUrl: llm.url, llmModel: 'recorded', llmTimeoutSeconds: 30, llmMaxAttempts: 1 })
    // Passages labeled after the answers were recorded have none: the stand-in would answer 404.
  await evaluate('chat-model extractor (recorded answers)', (p) => extractor.extract(p.text), (p) => recorded[p.id] !== undefined)
} finally {
  llm.server.close()
}

await printResolution(set, new URL('name-sets.json', fixtures).pathname)
