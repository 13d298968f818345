// `import { enqueue } from 'aizk'` is what an application pays to enqueue: no job is declared and
// neither the NLP library nor the converters load. aizk's own jobs come with `aizk/jobs`.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { describe, it } from 'node:test'
import { repoRoot } from '../support/cli.js'

const HEAVY = ['compromise', 'piscina', 'turndown', 'marked', 'graphology', 'ink', 'react', '@oclif']

function importEntry(specifier: string): { entrypoints: string[]; packages: string[] } {
  const out = execFileSync(process.execPath, [path.join(repoRoot, 'test', 'fixtures', 'import-entry.mjs'), specifier], { cwd: repoRoot, encoding: 'utf8' })
  const { entrypoints, loaded } = JSON.parse(out) as { entrypoints: string[]; loaded: string[] }
  const packages = new Set(loaded.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []))
  return { entrypoints, packages: [...packages].sort() }
}

describe('the library entries', () => {
  it('`aizk` declares no job and loads none of the heavy packages', () => {
    const { entrypoints, packages } = importEntry('aizk')
    assert.deepEqual(entrypoints, [])
    assert.deepEqual(
      packages.filter((p) => HEAVY.some((h) => p === h || p.startsWith(`${h}/`))),
      [],
    )
    assert.ok(packages.includes('pg'), `expected pg among ${packages.join(', ')}`)
  })

  it("`aizk/jobs` declares aizk's own jobs in the shared registry", () => {
    const { entrypoints } = importEntry('aizk/jobs')
    for (const name of ['aizk_convert_artifact', 'aizk_build_graph_chunk', 'aizk_task_backup', 'aizk_task_session_promote'])
      assert.ok(entrypoints.includes(name), `${name} not in ${entrypoints.join(', ')}`)
  })
})

describe('`aizk/jobs`', () => {
  it('exports every built-in job class', async () => {
    const { inventoryModules } = await import('../../src/jobs/inventory/index.js')
    const entry: Record<string, unknown> = await import('../../src/index-jobs.js')
    const declared = inventoryModules.flatMap((mod) => Object.entries(mod).filter(([name, value]) => typeof value === 'function' && name.endsWith('Job')))
    assert.equal(declared.length, 18)
    assert.deepEqual(
      declared.filter(([name, value]) => entry[name] !== value).map(([name]) => name),
      [],
    )
  })
})
