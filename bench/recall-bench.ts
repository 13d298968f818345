/**
 * `BENCH_SECTIONS=recall npm run bench`: recall's latency as the graph grows, tenants held fixed.
 * Claims spread over BENCH_RECALL_SETS (1,000) scope sets of one scope each, grown in place to
 * each of BENCH_RECALL_SIZES (10,000 100,000 1,000,000) claims by set-based SQL as the owner (a
 * generated claim that repeats one of its set's is dropped, so the counts printed are a little lower):
 * per set, one entity for every 4 claims, one chunk (about 40 words, its own document) for every 10,
 * a claim source each, a profile for every fifth entity; 30 % of claims link two entities. Names
 * and texts draw from one vocabulary shared by every set, so each word matches rows of many
 * tenants. At each size, BENCH_RECALL_QUERIES (200) recalls as the app role, each for a random set
 * naming one of its entities and a vocabulary word: p50 and p95, and the index scans they made
 * (pg_stat_user_indexes, before and after), so the figures say which indexes carry recall.
 * Server: AIZK_BENCH_URL, else AIZK_TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres.
 */
import pg from 'pg'
import { recall } from '../src/graph/read/recall.js'
import { DEFAULT_SYSTEM_USER_ID } from '../src/settings.js'
import { createScratchDb } from './scratch-db.js'

const env = process.env
const SIZES = (env.BENCH_RECALL_SIZES ?? '10000 100000 1000000')
  .split(/[\s,]+/)
  .filter(Boolean)
  .map(Number)
const SETS = Number(env.BENCH_RECALL_SETS ?? 1000)
const QUERIES = Number(env.BENCH_RECALL_QUERIES ?? 200)
const VOCABULARY = 5000
const identity = { appRole: 'aizk_app', systemUserId: DEFAULT_SYSTEM_USER_ID }

const scopeOf = (s: number) => `00000000-0000-4000-8000-${String(s).padStart(12, '0')}`
const SCOPE_SQL = (s: string) => `('00000000-0000-4000-8000-' || lpad((${s})::text, 12, '0'))::uuid`
/** Word i of the shared vocabulary: seven letters from a hash, the same in every run. */
const WORD_SQL = (i: string) => `translate(substr(md5('v' || ((${i}) % ${VOCABULARY})), 1, 7), '0123456789', 'ghijklmnop')`
const word = async (db: pg.Pool, i: number) => (await db.query<{ w: string }>(`SELECT ${WORD_SQL('$1::int')} AS w`, [i])).rows[0].w

/** Grow the graph from `from` to `to` claims (and their entities, chunks, sources, profiles). */
async function grow(db: pg.Pool, from: number, to: number): Promise<void> {
  const perSet = (n: number) => Math.ceil(n / SETS)
  const entities = (n: number) => Math.max(5, Math.ceil(perSet(n) / 4))
  const chunks = (n: number) => Math.max(1, Math.ceil(perSet(n) / 10))
  // Entity j of set s is global number s + SETS * j; chunk h of set s likewise.
  await db.query(`INSERT INTO entity (id, scopes, name, normalized_name, kind)
    SELECT md5('e' || k)::uuid, ARRAY[${SCOPE_SQL(`k % ${SETS}`)}], n, lower(n), (ARRAY['person','organisation','product','place','concept'])[1 + k % 5]
      FROM generate_series(${from ? SETS * entities(from) : 0}, ${SETS * entities(to)} - 1) AS k,
           LATERAL (SELECT initcap(${WORD_SQL('k * 7')}) || ' ' || initcap(${WORD_SQL('k * 13 + 3')}) || ' ' || initcap(${WORD_SQL(`k / ${VOCABULARY} + 11`)}) AS n) AS x
    ON CONFLICT DO NOTHING`)
  await db.query(`INSERT INTO profile (entity_id, scopes, summary, dirty, refreshed_at)
    SELECT e.id, e.scopes, e.name || ' (' || e.kind || ') is known for ' || ${WORD_SQL('k * 3 + 1')} || ' and ' || ${WORD_SQL('k * 5 + 2')} || '.', false, now()
      FROM generate_series(${from ? SETS * entities(from) : 0}, ${SETS * entities(to)} - 1, 5) AS k JOIN entity e ON e.id = md5('e' || k)::uuid
    ON CONFLICT DO NOTHING`)
  await db.query(`INSERT INTO document (id, scopes, title)
    SELECT md5('d' || h)::uuid, ARRAY[${SCOPE_SQL(`h % ${SETS}`)}], 'Document ' || h
      FROM generate_series(${from ? SETS * chunks(from) : 0}, ${SETS * chunks(to)} - 1) AS h`)
  await db.query(`INSERT INTO chunk (id, scopes, document_id, source, ordinal, text, char_start, char_end, projection_status)
    SELECT md5('h' || h)::uuid, ARRAY[${SCOPE_SQL(`h % ${SETS}`)}], md5('d' || h)::uuid, 'document', 0, t, 0, length(t), 'projected'
      FROM generate_series(${from ? SETS * chunks(from) : 0}, ${SETS * chunks(to)} - 1) AS h,
           LATERAL (SELECT string_agg(${WORD_SQL('h * 31 + i * 7919')}, ' ') AS t FROM generate_series(1, 40) AS i) AS x`)
  const ent = entities(to)
  await db.query(`INSERT INTO claim (id, scopes, predicate, subject_id, object_id, object_text, object_key, source_chunk_id, weight, created, last_reinforced)
    SELECT md5('c' || g)::uuid, ARRAY[${SCOPE_SQL('s')}], (ARRAY['found','lead','write','use','host','develop','maintain','release','support','include'])[1 + q % 10],
           md5('e' || (s + ${SETS} * j))::uuid,
           CASE WHEN q % 10 < 3 THEN md5('e' || (s + ${SETS} * ((j + 1 + q / 10) % ${ent})))::uuid END,
           CASE WHEN q % 10 >= 3 THEN ${WORD_SQL('g * 17')} || ' ' || ${WORD_SQL('g * 19 + 5')} END,
           CASE WHEN q % 10 < 3 THEN md5('e' || (s + ${SETS} * ((j + 1 + q / 10) % ${ent})))::text ELSE 'text:' || ${WORD_SQL('g * 17')} || ' ' || ${WORD_SQL('g * 19 + 5')} END,
           md5('h' || (s + ${SETS} * (q / 10)))::uuid, 0.5 + (g % 7) / 7.0, now() - (g % 1000) * interval '1 hour', now()
      FROM generate_series(${from}, ${to} - 1) AS g,
           LATERAL (SELECT g % ${SETS} AS s, g / ${SETS} AS q) AS p,
           LATERAL (SELECT (q * 7 + q / 10) % least(${ent}, greatest(5, q / 4 + 1)) AS j) AS e
    ON CONFLICT DO NOTHING`)
  await db.query(`INSERT INTO claim_source (claim_id, chunk_id, scopes)
    SELECT c.id, c.source_chunk_id, c.scopes FROM generate_series(${from}, ${to} - 1) AS g JOIN claim c ON c.id = md5('c' || g)::uuid
    ON CONFLICT DO NOTHING`)
  await db.query('VACUUM ANALYZE entity, profile, document, chunk, claim, claim_source')
}

async function indexScans(db: pg.Pool): Promise<Map<string, number>> {
  const { rows } = await db.query<{ name: string; n: string }>(
    `SELECT indexrelname AS name, idx_scan AS n FROM pg_stat_user_indexes WHERE relname IN ('entity','profile','chunk','claim','claim_source','community','community_member','document','mention')`,
  )
  return new Map(rows.map((r) => [r.name, Number(r.n)]))
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]

export async function runRecallBench(): Promise<{ what: string; value: string; note?: string }[]> {
  const scratch = await createScratchDb(`aizk_bench_recall_${process.pid}`)
  const db = new pg.Pool({ connectionString: scratch.url, max: 2 })
  const rows: { what: string; value: string; note?: string }[] = []
  try {
    let have = 0
    for (const size of SIZES) {
      const started = performance.now()
      await grow(db, have, size)
      have = size
      const grown = (performance.now() - started) / 1000
      const { rows: counts } = await db.query<{ claims: number; entities: number; chunks: number }>(
        'SELECT (SELECT count(*) FROM claim)::int AS claims, (SELECT count(*) FROM entity)::int AS entities, (SELECT count(*) FROM chunk)::int AS chunks',
      )
      // Questions: one of the set's own entity names and a shared word, so text matches other tenants too.
      const questions: { set: number; q: string }[] = []
      for (let i = 0; i < QUERIES; i++) {
        const set = (i * 7919) % SETS
        const { rows: e } = await db.query<{ name: string }>('SELECT name FROM entity WHERE scopes = $1::uuid[] ORDER BY id LIMIT 1 OFFSET $2', [
          [scopeOf(set)],
          i % 5,
        ])
        questions.push({ set, q: `What does ${e[0]?.name ?? 'nobody'} ${i % 2 ? 'develop' : 'use'} with ${await word(db, i * 31)}?` })
      }
      for (const { set, q } of questions.slice(0, 10)) await recall(db, { readScopes: [scopeOf(set)], query: q, limit: 10 }, identity)
      await new Promise((r) => setTimeout(r, 1200))
      const before = await indexScans(db)
      const times: number[] = []
      let items = 0
      for (const { set, q } of questions) {
        const t0 = performance.now()
        const r = await recall(db, { readScopes: [scopeOf(set)], query: q, limit: 10 }, identity)
        times.push(performance.now() - t0)
        items += r.items.length
        if (r.items.some((it) => it.scopes.join() !== scopeOf(set))) throw new Error(`recall for set ${set} returned another set's item`)
      }
      await new Promise((r) => setTimeout(r, 1200))
      const after = await indexScans(db)
      const used = [...after]
        .map(([name, n]) => [name, n - (before.get(name) ?? 0)] as const)
        .filter(([, n]) => n > 0)
        .sort((a, b) => b[1] - a[1])
      times.sort((a, b) => a - b)
      const c = counts[0]
      rows.push({
        what: `recall p50 / p95, ${c.claims.toLocaleString('en')} claims over ${SETS} scope sets (${c.entities.toLocaleString('en')} entities, ${c.chunks.toLocaleString('en')} chunks)`,
        value: `${pct(times, 50).toFixed(1)} / ${pct(times, 95).toFixed(1)} ms`,
        note: `${QUERIES} questions, ${(items / QUERIES).toFixed(1)} items each; grown in ${grown.toFixed(0)} s; index scans: ${used.map(([n, k]) => `${n} ${k}`).join(', ')}`,
      })
      process.stderr.write(`bench recall: ${rows[rows.length - 1].what}: ${rows[rows.length - 1].value}\n`)
    }
    if (rows.length > 1) {
      const ms = (r: { value: string }) => Number(r.value.split(' / ')[0])
      const claims = (r: { what: string }) => r.what.split(' claims')[0].replace('recall p50 / p95, ', '')
      rows.push({
        what: `recall p50 at ${claims(rows[rows.length - 1])} claims over the one at ${claims(rows[0])}`,
        value: `${(ms(rows[rows.length - 1]) / ms(rows[0])).toFixed(2)}x`,
      })
    }
  } finally {
    await db.end()
    if (!env.BENCH_KEEP) await scratch.drop()
  }
  return rows
}
