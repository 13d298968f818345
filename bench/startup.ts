/**
 * Start-up of whole CLI processes (issue 16): `aizk --version`, `aizk jobs types --json` and
 * `aizk status --once`, each spawned 10 times (median), against plain `node -e 0`: the wall
 * time, and the CPU time (user + system) each process used, which other work on a shared
 * machine disturbs less than the wall time. With
 * BENCH_BEFORE_DIR (another built checkout, e.g. the previous commit) the same commands of that
 * checkout run interleaved in the same run, so before and after share the machine's noise.
 * Knobs: BENCH_STARTUP_RUNS (10), BENCH_BEFORE_DIR; docs/benchmarks.md#knobs.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { num, text } from './knobs.js'
import { endedChildrenCpuSeconds, median } from './process-stats.js'
import { createScratchDb } from './scratch-db.js'

const here = path.dirname(path.dirname(fileURLToPath(import.meta.url)))
const runs = num('BENCH_STARTUP_RUNS', 10)
const checkouts: [string, string][] = [['after', here]]
const beforeDir = text('BENCH_BEFORE_DIR')
if (beforeDir) checkouts.unshift(['before', path.resolve(beforeDir)])
const commands = [['--version'], ['jobs', 'types', '--json'], ['status', '--once']]

interface Sample {
  wallMs: number
  cpuMs: number
}

function timeProcess(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now()
    const cpu0 = endedChildrenCpuSeconds()
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (d) => {
      stderr += d
    })
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`))
      resolve({ wallMs: performance.now() - t0, cpuMs: (endedChildrenCpuSeconds() - cpu0) * 1000 })
    })
  })
}

const db = await createScratchDb(`aizk_bench_startup_${process.pid}`)
const env: NodeJS.ProcessEnv = {}
for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('AIZK_') && k !== 'NODE_OPTIONS') env[k] = v
env.AIZK_DATABASE_URL = db.url
const samples = new Map<string, Sample[]>()
const add = (key: string, sample: Sample) => samples.set(key, [...(samples.get(key) ?? []), sample])
try {
  // One untimed round warms the file cache; then every variant once per round, interleaved.
  for (let round = 0; round <= runs; round++) {
    const ms = await timeProcess(['-e', '0'], env, here)
    if (round) add('node -e 0', ms)
    for (const [label, dir] of checkouts) {
      for (const cmd of commands) {
        const t = await timeProcess([path.join(dir, 'bin', 'run.js'), ...cmd], env, dir)
        if (round) add(`${label}|${cmd.join(' ')}`, t)
      }
    }
  }
} finally {
  await db.drop()
}
const medianOf = (key: string, field: keyof Sample) => median((samples.get(key) ?? []).map((s) => s[field]))
const fmt = (n: number) => `${Math.round(n)} ms`
const plus = (n: number) => `${n < 0 ? '-' : '+'}${fmt(Math.abs(n))}`
const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
console.log(`\nstart-up of whole processes, median of ${runs} (node ${process.version}; load average at the end ${load})\n`)
for (const [field, title] of [
  ['wallMs', 'wall time'],
  ['cpuMs', 'CPU time (user + system)'],
] as const) {
  const node = medianOf('node -e 0', field)
  console.log(`${title}; plain \`node -e 0\`: ${fmt(node)}\n`)
  console.log(`| command | ${checkouts.map(([l]) => l).join(' | ')} | ${checkouts.map(([l]) => `${l} - node`).join(' | ')} |`)
  console.log(`|---|${checkouts.map(() => '---|').join('')}${checkouts.map(() => '---|').join('')}`)
  for (const cmd of commands) {
    const m = checkouts.map(([l]) => medianOf(`${l}|${cmd.join(' ')}`, field))
    console.log(`| \`aizk ${cmd.join(' ')}\` | ${m.map(fmt).join(' | ')} | ${m.map((x) => plus(x - node)).join(' | ')} |`)
  }
  console.log('')
}
