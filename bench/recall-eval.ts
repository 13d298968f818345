/**
 * `npm run eval:recall`: recall measured against questions over the labeled passages
 * (test/fixtures/graph-eval/recall-questions.json; docs/memory-graph.md, "Reading the graph").
 * The passages are ingested as documents into one scope set and projected by the extractor on
 * this branch (the built-in one), profiles and communities built; the same passages with their
 * numbers changed are ingested into two decoy sets, {D} and the wider {E, D}. Every question is
 * asked of {E} alone. Prints hit@5 (every needed fact is in the first five items), MRR (of the
 * item completing the facts, first ten) and the same hit@5 counting claim items only, per split;
 * exits 1 when any item of any answer comes from outside {E}.
 * Server: AIZK_BENCH_URL, else AIZK_TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres.
 */
import { readFileSync } from 'node:fs'
import pg from 'pg'
import { closeExtractionPool } from '../src/graph/extract/extract-pool.js'
import { buildCommunities } from '../src/graph/maintain/communities/build-communities.js'
import { refreshDirtyProfiles } from '../src/graph/maintain/profiles.js'
import { recall } from '../src/graph/read/recall.js'
import type { RecallItem } from '../src/graph/read/recall-types.js'
import { writeDocument } from '../src/graph/project/write-memory.js'
import { ChunkProjectionJob } from '../src/jobs/inventory/index.js'
import { User } from '../src/scope/user.js'
import { DEFAULT_SYSTEM_USER_ID, parseSettings } from '../src/settings.js'
import { loadLabeledSet, type Passage } from './graph-eval/labels.js'
import { createScratchDb } from './scratch-db.js'

interface Question {
  passage: string
  question: string
  facts: string[][]
}

const EVAL = 'eeeeeeee-0000-4000-8000-000000000001'
const DECOY = 'dddddddd-0000-4000-8000-000000000002'
const identity = { appRole: 'aizk_app', systemUserId: DEFAULT_SYSTEM_USER_ID }
const settings = parseSettings({})
const fixtures = new URL('../test/fixtures/graph-eval/', import.meta.url)
const passages = loadLabeledSet(new URL('passages.json', fixtures).pathname).passages
const questions = (JSON.parse(readFileSync(new URL('recall-questions.json', fixtures), 'utf8')) as { questions: Question[] }).questions

/** A decoy of a passage: the same text with every number changed, so a leak would answer wrongly. */
const decoyText = (text: string) => text.replace(/\d+/g, (n) => String(Number(n) + 7))

async function ingest(pool: pg.Pool, scopes: string[], p: Passage, body: string) {
  const chunkIds = await User.system(scopes, identity).transaction(pool, async (db) => {
    const doc = await writeDocument(db, scopes, { title: `${p.source.package}: ${p.source.file.split('/').pop()} (${p.id})`, body }, settings)
    return (await db.query<{ id: string }>('SELECT id::text FROM chunk WHERE document_id = $1 ORDER BY ordinal', [doc.documentId])).rows.map((r) => r.id)
  })
  const job = new ChunkProjectionJob()
  for (const chunkId of chunkIds) {
    const ctx = { pool, jobId: '0', entrypoint: ChunkProjectionJob.entrypoint, attempts: 0, headers: {}, signal: new AbortController().signal, settings }
    await job.handle(ChunkProjectionJob.payload.parse({ chunkId, scopes }), ctx)
  }
}

const holds = (item: RecallItem, fact: string[]) => fact.every((term) => item.text.toLowerCase().includes(term.toLowerCase()))

/** The 1-based place at which every fact has been seen, or null. */
function completedAt(items: RecallItem[], facts: string[][]): number | null {
  const missing = new Set(facts.map((_, i) => i))
  for (let i = 0; i < items.length; i++) {
    for (const f of [...missing]) if (holds(items[i], facts[f])) missing.delete(f)
    if (missing.size === 0) return i + 1
  }
  return null
}

const scratch = await createScratchDb(`aizk_recall_eval_${process.pid}`)
const pool = new pg.Pool({ connectionString: scratch.url, max: 4 })
let leaks = 0
try {
  for (const p of passages) {
    await ingest(pool, [EVAL], p, p.text)
    await ingest(pool, [DECOY], p, decoyText(p.text))
    await ingest(pool, [EVAL, DECOY].sort(), p, decoyText(p.text))
  }
  const user = User.system([EVAL], identity)
  await refreshDirtyProfiles(pool, user, settings)
  await user.transaction(pool, (db) => buildCommunities(db, [EVAL], settings))
  for (const split of ['tune', 'held-out'] as const) {
    const asked = questions.filter((q) => passages.find((p) => p.id === q.passage)?.split === split)
    let hits = 0
    let claimHits = 0
    let rr = 0
    const misses: string[] = []
    for (const q of asked) {
      const r = await recall(pool, { readScopes: [EVAL], query: q.question, limit: 10 }, identity)
      for (const item of r.items) if (item.scopes.some((s) => s !== EVAL)) leaks++
      const at = completedAt(r.items, q.facts)
      if (at !== null && at <= 5) hits++
      else misses.push(`${q.question} [${q.facts.map((f) => f.join(' + ')).join('; ')}] -> ${r.items.slice(0, 5).map((i) => `${i.kind}: ${i.text.slice(0, 60).replace(/\s+/g, ' ')}`).join(' | ')}`)
      if (at !== null) rr += 1 / at
      const claimsOnly = r.items.filter((i) => i.kind === 'claim')
      const claimAt = completedAt(claimsOnly, q.facts)
      if (claimAt !== null && r.items.indexOf(claimsOnly[claimAt - 1]) < 5) claimHits++
    }
    const n = asked.length
    console.log(`\nrecall, ${split} split (${n} questions)`)
    console.log(`  hit@5 ${(hits / n).toFixed(2)} (${hits}/${n})  MRR ${(rr / n).toFixed(2)}  hit@5 by claims alone ${(claimHits / n).toFixed(2)} (${claimHits}/${n})`)
    if (process.env.EVAL_VERBOSE) for (const m of misses) console.log(`  miss: ${m}`)
  }
  console.log(`\nitems from outside the read set {E} (decoys {D} and {E,D} hold the same passages, numbers changed): ${leaks}`)
} finally {
  await pool.end()
  await closeExtractionPool()
  await scratch.drop()
}
if (leaks > 0) {
  console.error(`recall returned ${leaks} items from outside the read set`)
  process.exit(1)
}
