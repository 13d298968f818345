/**
 * What an application pays to import aizk: each package entry (`aizk`, `aizk/jobs`, `aizk/graph`)
 * imported in a fresh process, the entries alternating each round (BENCH_ROUNDS, 7), from the
 * built dist/ (run `npm run build` first). Prints the median import time and retained heap of
 * each, and each entry's ratio to `aizk`: `node --import tsx bench/library-import.ts`.
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const ENTRIES = ['aizk', 'aizk/jobs', 'aizk/graph']
const rounds = Number(process.env.BENCH_ROUNDS ?? 7)

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const samples = new Map<string, { ms: number; heapMB: number }[]>(ENTRIES.map((e) => [e, []]))
for (let round = 0; round < rounds; round++) {
  for (const entry of ENTRIES) {
    const out = execFileSync(process.execPath, ['--expose-gc', path.join(here, 'library-import-child.mjs'), entry], {
      cwd: path.join(here, '..'),
      encoding: 'utf8',
    })
    samples.get(entry)?.push(JSON.parse(out))
  }
}
const base = median((samples.get('aizk') ?? []).map((s) => s.ms))
console.log(`library import, ${rounds} alternating rounds, fresh process each`)
for (const [entry, s] of samples) {
  const ms = median(s.map((x) => x.ms))
  const heap = median(s.map((x) => x.heapMB))
  console.log(`${entry.padEnd(11)} median ${ms.toFixed(0).padStart(5)} ms  heap ${heap.toFixed(1).padStart(5)} MB  x${(ms / base).toFixed(2)} of aizk`)
}
