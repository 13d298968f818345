// What `npm pack` ships: besides the code, the licence text package.json names, every page under
// docs/, and every file the README and those pages link to, so an installed copy's documentation
// has no dead links.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { repoRoot } from '../support/cli.js'

/** The packed file list; scripts are skipped (`prepare` would build first). */
function packedFiles(): Set<string> {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  return new Set((JSON.parse(out)[0].files as { path: string }[]).map((f) => f.path))
}

describe('the npm package', () => {
  const files = packedFiles()

  it('ships an MIT LICENSE, as package.json says', () => {
    assert.ok(files.has('LICENSE'), 'LICENSE is not packed')
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'))
    assert.equal(pkg.license, 'MIT')
    assert.match(readFileSync(path.join(repoRoot, 'LICENSE'), 'utf8'), /^MIT License\n\nCopyright \(c\) \d{4} aizk authors\n/)
  })

  it('ships every file the README links to', () => {
    const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8')
    const targets = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]).filter((t) => !/^[a-z]+:/.test(t))
    assert.ok(
      targets.some((t) => t.startsWith('docs/')),
      'the README links no docs/ page',
    )
    assert.deepEqual(
      targets.filter((t) => !files.has(path.posix.normalize(t))),
      [],
    )
  })

  it('ships every page under docs/, and every file those pages link to', () => {
    const pages = readdirSync(path.join(repoRoot, 'docs'), { recursive: true, encoding: 'utf8' })
      .filter((p) => p.endsWith('.md'))
      .map((p) => path.posix.join('docs', p))
    assert.deepEqual(
      pages.filter((p) => !files.has(p)),
      [],
      'pages not packed',
    )
    const dead: string[] = []
    for (const page of pages) {
      const text = readFileSync(path.join(repoRoot, page), 'utf8').replace(/^```[\s\S]*?^```/gm, '')
      for (const [, href] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(href)) continue
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(page), href))
        // A link to a folder lands when the package holds a file under it.
        if (!files.has(target) && ![...files].some((f) => f.startsWith(`${target.replace(/\/$/, '')}/`))) dead.push(`${page} -> ${target}`)
      }
    }
    assert.deepEqual(dead, [])
  })
})
