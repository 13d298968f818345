/**
 * `npm run eval:recall`: recall measured against questions over the labeled passages, per package
 * and pooled, with questions whose right answer is nothing (docs/memory-graph.md, "The recall
 * evaluation"). The packages are split into two scope sets {A} and {B} (bench/recall-eval/probes.ts);
 * each passage is ingested into its set and projected by the extractor on this branch, profiles and
 * communities built; the same passages with their numbers changed go into a decoy set {D} and into
 * {A,D} or {B,D}. Each question is asked of its own set (answerable), of the other set where nothing
 * there answers it, and the questions nothing answers of both. The relevance floor is chosen for each
 * package on the others' questions. Prints per package and pooled: hit@5, abstention precision and
 * recall, MRR, hit@5 by graph items alone; exits 1 when any item comes from outside the read set.
 * Server: AIZK_BENCH_URL, else AIZK_TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres.
 */
import pg from 'pg'
import { closeExtractionPool } from '../src/graph/extract/extract-pool.js'
import { buildCommunities } from '../src/graph/maintain/communities/build-communities.js'
import { refreshDirtyProfiles } from '../src/graph/maintain/profiles.js'
import { writeDocument } from '../src/graph/project/write-memory.js'
import { recall } from '../src/graph/read/recall.js'
import { featureVector } from '../src/graph/read/recall-model.js'
import type { RecallItem } from '../src/graph/read/recall-types.js'
import { ChunkProjectionJob } from '../src/jobs/inventory/index.js'
import { User } from '../src/scope/user.js'
import { DEFAULT_SYSTEM_USER_ID, parseSettings } from '../src/settings.js'
import type { Passage } from './graph-eval/labels.js'
import { checkFixture } from './recall-eval/examples.js'
import { loadPassages, type Probe, probes, setOf } from './recall-eval/probes.js'
import { type Outcome, printReport } from './recall-eval/report.js'
import { createScratchDb } from './scratch-db.js'

const SETS = { A: 'aaaaaaaa-0000-4000-8000-00000000000a', B: 'bbbbbbbb-0000-4000-8000-00000000000b' }
const DECOY = 'dddddddd-0000-4000-8000-000000000002'
const identity = { appRole: 'aizk_app', systemUserId: DEFAULT_SYSTEM_USER_ID }
const settings = parseSettings({})

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

async function ask(pool: pg.Pool, probe: Probe): Promise<{ outcome: Outcome; leaks: number }> {
  const r = await recall(pool, { readScopes: [SETS[probe.set]], query: probe.question, limit: 10, floor: 0 }, identity)
  const leaks = r.items.filter((item) => item.scopes.some((s) => s !== SETS[probe.set])).length
  const support = Math.max(0, ...r.items.map((i) => i.support))
  const at = probe.facts.length ? completedAt(r.items, probe.facts) : null
  const graphItems = r.items.slice(0, 5).filter((i) => i.kind !== 'chunk')
  const top = r.items
    .slice(0, 3)
    .map((i) => `${i.kind}(${i.support.toFixed(2)}): ${i.text.slice(0, 50).replace(/\s+/g, ' ')}`)
    .join(' | ')
  const outcome: Outcome = {
    probe,
    package: probe.package,
    answerable: probe.facts.length > 0,
    support,
    wordSupport: support,
    hit: at !== null && at <= 5,
    rr: at === null ? 0 : 1 / at,
    graphHit: probe.facts.length > 0 && completedAt(graphItems, probe.facts) !== null,
    top,
    x: featureVector(r.features),
  }
  return { outcome, leaks }
}

const passages = loadPassages()
const sets = setOf(passages.map((p) => p.package))
const scratch = await createScratchDb(`aizk_recall_eval_${process.pid}`)
const pool = new pg.Pool({ connectionString: scratch.url, max: 4 })
let leaks = 0
try {
  for (const { passage: p, package: pkg } of passages) {
    const own = SETS[sets.get(pkg) as 'A' | 'B']
    await ingest(pool, [own], p, p.text)
    await ingest(pool, [DECOY], p, decoyText(p.text))
    await ingest(pool, [own, DECOY].sort(), p, decoyText(p.text))
  }
  for (const scope of Object.values(SETS)) {
    const user = User.system([scope], identity)
    await refreshDirtyProfiles(pool, user, settings)
    await user.transaction(pool, (db) => buildCommunities(db, [scope], settings))
  }
  const outcomes: Outcome[] = []
  for (const probe of probes(passages, sets)) {
    const { outcome, leaks: n } = await ask(pool, probe)
    outcomes.push(outcome)
    leaks += n
  }
  const inA = [...sets].filter(([, s]) => s === 'A').map(([p]) => p)
  console.log(`\nrecall: ${passages.length} passages of ${sets.size} packages in two sets (A: ${inA.join(', ')}; B: the rest)`)
  console.log(
    `${outcomes.filter((o) => o.answerable).length} answerable questions, ${outcomes.filter((o) => !o.answerable).length} whose right answer is nothing`,
  )
  printReport(outcomes)
  console.log(
    checkFixture(
      outcomes.map((o) => ({ ...o, question: o.probe.question, set: o.probe.set })),
      process.argv.includes('--write'),
    ),
  )
  console.log(`\nitems from outside the read set (decoys {D} and {A,D}, {B,D} hold the same passages, numbers changed): ${leaks}`)
} finally {
  await pool.end()
  await closeExtractionPool()
  await scratch.drop()
}
if (leaks > 0) {
  console.error(`recall returned ${leaks} items from outside the read set`)
  process.exit(1)
}
