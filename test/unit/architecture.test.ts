// The shape of the house, checked: the core never knows it is a CLI, and every command's flags
// are shown in an example of its --help.
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { repoRoot } from '../helpers/cli.js'

const CORE = ['db', 'queue', 'scope', 'jobs', 'scheduler', 'worker', 'content', 'ingest', 'convert', 'chunking', 'embedding', 'backup', 'usage']

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    return statSync(full).isDirectory() ? sources(full) : /\.tsx?$/.test(name) ? [full] : []
  })
}

describe('architecture', () => {
  it('core modules import neither oclif, ink, react nor the CLI layers', () => {
    const offenders: string[] = []
    for (const area of CORE) {
      for (const file of sources(path.join(repoRoot, 'src', area))) {
        const text = readFileSync(file, 'utf8')
        for (const m of text.matchAll(/^\s*import[^'"]*['"]([^'"]+)['"]/gm)) {
          const spec = m[1]
          if (/^(@oclif\/|ink($|\/)|react($|\/)|chalk$)/.test(spec) || /\/(cli|commands|ui)\//.test(`${spec}/`)) {
            offenders.push(`${path.relative(repoRoot, file)} imports ${spec}`)
          }
        }
      }
    }
    assert.deepEqual(offenders, [])
  })

  it('every flag of every command appears in one of its --help examples', () => {
    const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'oclif.manifest.json'), 'utf8'))
    const missing: string[] = []
    for (const [id, cmd] of Object.entries<{ flags: Record<string, { type: string }>; examples?: (string | { command: string })[] }>(manifest.commands)) {
      const examples = (cmd.examples ?? []).map((e) => (typeof e === 'string' ? e : e.command)).join('\n')
      for (const flag of Object.keys(cmd.flags)) {
        if (flag === 'json' && /--json/.test(examples)) continue
        if (!new RegExp(`--(no-)?${flag}\\b`).test(examples)) missing.push(`${id} --${flag}`)
      }
    }
    assert.deepEqual(missing, [])
  })
})
