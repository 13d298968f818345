/**
 * Dedup's similar-name search (PPJoin over pg_trgm's trigrams) against the plain definition:
 * every same-kind pair whose pg_trgm similarity() is above the threshold, compared pair by pair
 * in SQL. Names from real prose (Python documentation words), with near variants, long and very
 * short names, and accented and CJK names (whose trigrams pg_trgm hashes), at several thresholds.
 */
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { normalizeName } from '../../src/graph/extract/normalize.js'
import { similarNamePairs } from '../../src/graph/resolve/similar-names.js'
import { confirmSimilar, nameTrigrams } from '../../src/graph/resolve/sql/dedup-sql.js'
import { A, C, fileAppLogin } from '../support/app-login.js'
import { fileDatabase } from '../support/db.js'
import { corpusText } from '../support/graph/corpus.js'
import { asSet } from '../support/graph/graph.js'

const S = [A, C]
const db = await fileDatabase()
const app = await fileAppLogin(db)
/** Every same-kind pair with similarity above the lowest threshold, and that similarity (float4, exactly, as float8). */
let pairs: { key: string; similarity: number }[] = []

function names(): { name: string; kind: string }[] {
  const words = [
    ...new Set(
      corpusText('tutorial/classes.rst.txt')
        .toLowerCase()
        .match(/\b[a-z]{3,}\b/g),
    ),
  ].slice(0, 400)
  const out: { name: string; kind: string }[] = []
  const kinds = ['person', 'concept']
  for (let i = 0; i < 600; i++) {
    const w = (k: number) => words[(i * 7 + k * 13) % words.length]
    const base = i % 3 === 0 ? `${w(0)} ${w(1)}` : i % 3 === 1 ? `${w(0)} ${w(1)} ${w(2)} ${w(3)}` : w(0)
    out.push({ name: base, kind: kinds[i % 2] })
    if (i % 4 === 0) out.push({ name: `${base}s`, kind: kinds[i % 2] })
    if (i % 5 === 0) out.push({ name: `${base.slice(0, -1)}x`, kind: kinds[(i + 1) % 2] })
    if (i % 6 === 0) out.push({ name: `${base} ${w(9)}`, kind: kinds[i % 2] })
  }
  out.push(
    ...['ab', 'a', 'x1', 'abc', 'café crème', 'cafe creme', 'café crèmes', '東京 大学', '東京 大学院', 'Łódź', 'lodz'].map((name) => ({ name, kind: 'place' })),
  )
  const seen = new Set<string>()
  return out.filter((e) => {
    const key = `${e.kind} ${normalizeName(e.name)}`
    if (seen.has(key) || normalizeName(e.name) === '') return false
    seen.add(key)
    return true
  })
}

before(async () => {
  const rows = names()
  await asSet(app.scoped, S, (q) =>
    q.query(
      `INSERT INTO entity (scopes, name, normalized_name, kind) SELECT $1::uuid[], n, nn, k FROM unnest($2::text[], $3::text[], $4::text[]) AS u(n, nn, k)`,
      [S, rows.map((r) => r.name), rows.map((r) => normalizeName(r.name)), rows.map((r) => r.kind)],
    ),
  )
  const all = await asSet(app.scoped, S, (q) =>
    q.query<{ a: string; b: string; s: number }>(
      `SELECT x.id::text AS a, y.id::text AS b, similarity(x.normalized_name, y.normalized_name)::float8 AS s
         FROM entity x JOIN entity y ON y.kind = x.kind AND y.id > x.id
        WHERE x.scopes = $1::uuid[] AND y.scopes = $1::uuid[] AND similarity(x.normalized_name, y.normalized_name) > 0.25`,
      [S],
    ),
  )
  pairs = all.rows.map((r) => ({ key: key([r.a, r.b]), similarity: r.s }))
})

function key([a, b]: [string, string]): string {
  return a < b ? `${a} ${b}` : `${b} ${a}`
}

describe('similar names', () => {
  for (const threshold of [0.3, 0.5, 0.55, 0.7, 0.8, 0.9]) {
    it(`finds exactly the same-kind pairs whose pg_trgm similarity is above ${threshold}`, async () => {
      await asSet(app.scoped, S, async (q) => {
        const expected = pairs
          .filter((p) => p.similarity > threshold)
          .map((p) => p.key)
          .sort()
        assert.ok(expected.length > 20, `the names hold pairs above ${threshold} (${expected.length})`)
        const found = await similarNamePairs(await nameTrigrams(q, S), threshold)
        assert.deepEqual(found.map(key).sort(), expected, 'the search alone already agrees with pg_trgm')
        assert.deepEqual((await confirmSimilar(q, S, found, threshold)).map(key).sort(), expected)
      })
    })
  }
})
