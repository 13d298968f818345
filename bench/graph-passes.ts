/** The decay and dedup passes at size: data made in SQL (decay) or from corpus words (dedup), then timed. */
import type pg from 'pg'
import { normalizeName } from '../src/graph/extract/normalize.js'
import { decayClaims } from '../src/graph/maintain/decay.js'
import { dedupEntities } from '../src/graph/resolve/dedup.js'
import { User } from '../src/scope/user.js'
import { parseSettings } from '../src/settings.js'
import { fmt, type Row } from './graph-rows.js'

export async function benchDecay(pool: pg.Pool, set: string[], claims: number): Promise<Row[]> {
  const scopes = [...set.slice(0, -1), set.at(-1)?.replace(/b$/, 'd') as string]
  await pool.query(
    `INSERT INTO entity (scopes, name, normalized_name, kind) SELECT $1::uuid[], 'entity ' || i, 'entity ' || i, 'concept' FROM generate_series(1, 1000) i`,
    [scopes],
  )
  await pool.query(
    `WITH e AS (SELECT array_agg(id) AS ids FROM entity WHERE scopes = $1::uuid[])
     INSERT INTO claim (scopes, subject_id, predicate, object_text, object_key, weight, last_decayed)
     SELECT $1::uuid[], e.ids[1 + i % 1000], 'relate to', 'literal ' || i, 'text:literal ' || i, 1 + i % 5, now() - interval '30 days' - (i % 400) * interval '1 day'
       FROM e, generate_series(1, $2::int) i`,
    [scopes, claims],
  )
  await pool.query('VACUUM ANALYZE claim')
  const t0 = performance.now()
  const result = await decayClaims(pool, User.system(scopes, parseSettings({})), { halfLifeDays: 90, floor: 0.05, batch: 20000 })
  const seconds = (performance.now() - t0) / 1000
  return [
    {
      section: 'decay',
      what: `decay of ${fmt(claims)} claims (batches of 20,000)`,
      value: `${fmt(seconds, 1)} s`,
      note: `${fmt(result.decayed / seconds)} claims/s, ${fmt(result.faded)} faded; target under 60 s`,
    },
  ]
}

/** A small deterministic generator, so every run dedups the same names. */
function prng(seed: number) {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

const KINDS = ['concept', 'person', 'place', 'organisation']

export function dedupNames(count: number, words: string[]): { name: string; kind: string }[] {
  const rand = prng(42)
  const pick = () => words[Math.floor(rand() * words.length)]
  const out: { name: string; kind: string }[] = []
  const seen = new Set<string>()
  while (out.length < count) {
    const r = rand()
    const prev = out.length ? out[Math.floor(rand() * out.length)] : null
    let e: { name: string; kind: string }
    if (prev && r < 0.05) e = { name: `${prev.name}s`, kind: prev.kind }
    else if (prev && r < 0.1) e = { name: prev.name.toUpperCase().replace(' ', '  '), kind: KINDS[(KINDS.indexOf(prev.kind) + 1) % 4] }
    else e = { name: `${pick()} ${pick()}`, kind: KINDS[out.length % 4] }
    const key = `${e.kind} ${normalizeName(e.name)}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push(e)
  }
  return out
}

export async function benchDedup(pool: pg.Pool, set: string[], count: number, words: string[]): Promise<Row[]> {
  const scopes = [...set.slice(0, -1), set.at(-1)?.replace(/b$/, 'e') as string]
  await loadDedupEntities(pool, scopes, count, words)
  const t0 = performance.now()
  const result = await User.system(scopes, parseSettings({})).transaction(pool, (db) => dedupEntities(db, scopes, { similarity: 0.8 }))
  const seconds = (performance.now() - t0) / 1000
  return [
    {
      section: 'dedup',
      what: `dedup over ${fmt(count)} entities (similarity above 0.8)`,
      value: `${fmt(seconds, 1)} s`,
      note: `${fmt(result.merged)} merged, ${fmt(result.claimsMoved)} claims repointed (${fmt(result.claimsFolded)} folded); target under 30 s`,
    },
  ]
}

/** Entities named from corpus words (a tenth of them near or equal names of another), one claim and one profile each. */
export async function loadDedupEntities(pool: pg.Pool, scopes: string[], count: number, words: string[]): Promise<void> {
  const names = dedupNames(count, words)
  for (let i = 0; i < names.length; i += 10_000) {
    const batch = names.slice(i, i + 10_000)
    await pool.query(
      `WITH e AS (
         INSERT INTO entity (scopes, name, normalized_name, kind)
         SELECT $1::uuid[], n, nn, k FROM unnest($2::text[], $3::text[], $4::text[]) AS u(n, nn, k)
         RETURNING id)
       INSERT INTO claim (scopes, subject_id, predicate, object_text, object_key)
       SELECT $1::uuid[], id, 'appear in', 'the corpus', 'text:the corpus' FROM e`,
      [scopes, batch.map((b) => b.name), batch.map((b) => normalizeName(b.name)), batch.map((b) => b.kind)],
    )
  }
  await pool.query(`INSERT INTO profile (entity_id, scopes, dirty) SELECT id, scopes, false FROM entity WHERE scopes = $1::uuid[]`, [scopes])
  await pool.query('VACUUM ANALYZE entity, claim, profile')
}
