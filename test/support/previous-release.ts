/**
 * The previous release of aizk, built once into the user's cache by
 * scripts/build-previous-release.sh (its tag, else the commit CHANGELOG.md names), for the
 * rolling-upgrade tests: its CLI, its fixture job module (which imports its own dist/), and its
 * library. A clone without that commit skips with the script's reason; any other failure fails.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { repoRoot } from './cli.js'

export interface PreviousRelease {
  /** The built tree (CACHE/releases/COMMIT). */
  root: string
  /** Its bin/run.js. */
  bin: string
  /** Its test/fixtures/test-jobs.mjs: the same job classes, bound to its own dist/. */
  jobs: string
  /** Its package.json version. */
  version: string
  /** `{ bin, root }` for spawnWorker's `build`. */
  build: { bin: string; root: string }
}

let cached: PreviousRelease | { skip: string } | undefined

export function previousRelease(): PreviousRelease | { skip: string } {
  if (cached) return cached
  const r = spawnSync('bash', [path.join(repoRoot, 'scripts', 'build-previous-release.sh')], { encoding: 'utf8', timeout: 600_000 })
  if (r.status === 3) {
    cached = { skip: `the previous release cannot be built here: ${r.stderr.trim().split('\n').at(-1)}` }
    return cached
  }
  if (r.status !== 0) throw new Error(`scripts/build-previous-release.sh failed (exit ${r.status ?? r.signal}): ${r.stderr || r.error?.message}`)
  const root = r.stdout.trim()
  const bin = path.join(root, 'bin', 'run.js')
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }
  cached = { root, bin, jobs: path.join(root, 'test', 'fixtures', 'test-jobs.mjs'), version, build: { bin, root } }
  return cached
}
