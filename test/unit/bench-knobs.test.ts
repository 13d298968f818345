// Every knob a benchmark reads is in the knob table of docs/benchmarks.md, and no benchmark reads
// the server or a knob by hand where bench/knobs.ts has a reader for it.
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { repoRoot } from '../support/cli.js'

const BENCH = path.join(repoRoot, 'bench')
const sources = readdirSync(BENCH)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => ({ file: f, text: readFileSync(path.join(BENCH, f), 'utf8') }))
const table = readFileSync(path.join(repoRoot, 'docs', 'benchmarks.md'), 'utf8')

describe('benchmark knobs', () => {
  it('lists every knob read in bench/ in the table of docs/benchmarks.md', () => {
    const read = new Set<string>()
    for (const { text } of sources) {
      for (const m of text.matchAll(/\b(?:num|words|flag|text)\('([A-Z][A-Z0-9_]+)'/g)) read.add(m[1])
      for (const m of text.matchAll(/process\.env\.(BENCH_[A-Z0-9_]+)/g)) read.add(m[1])
    }
    assert.ok(read.size > 40, `found only ${read.size} knobs: is the reader pattern still right?`)
    const missing = [...read].filter((k) => !table.includes(`\`${k}\``))
    assert.deepEqual(missing, [], 'add these to the knob table in docs/benchmarks.md')
  })

  it('makes every scratch database through bench/scratch-db.ts', () => {
    const byHand = sources.filter(({ file, text }) => file !== 'scratch-db.ts' && /create database/i.test(text)).map((s) => s.file)
    assert.deepEqual(byHand, [])
  })
})
