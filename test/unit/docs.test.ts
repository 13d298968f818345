// The project documents itself: the README stays short and links every page under docs/, every
// relative link (README, docs/, the benchmark run records under bench/results/) lands on a file
// and heading that exist, and the source cites those pages, never design notes that live outside
// the repository. Pages state the current truth: no heading carries a date (a dated run belongs
// in its record under bench/results/ and in CHANGELOG.md).
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { repoRoot } from '../support/cli.js'
import { anchorsOf, withoutCode } from '../support/markdown.js'

const README = path.join(repoRoot, 'README.md')
const DOCS = path.join(repoRoot, 'docs')
const RUN_RECORDS = path.join(repoRoot, 'bench', 'results')

const markdownUnder = (dir: string) => filesUnder(dir).filter((f) => f.endsWith('.md'))

/** A day or a month: 2026-12-04, 2026-12, "December 4, 2026", "December 2026". */
const DATE =
  /\b(19|20)\d{2}-(0[1-9]|1[0-2])\b|\b(January|February|March|April|May|June|July|August|September|October|November|December) (\d{1,2}, )?(19|20)\d{2}\b/

const CITATION = /\bDESIGN\b|\bSTYLE\.md\b|(?<!sdk\/)shared\/|spec\/(job-system|background-work)\.md/

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    return statSync(full).isDirectory() ? filesUnder(full) : [full]
  })
}

/** Relative links of a markdown file: [text](target#anchor), resolved against its folder. */
function relativeLinks(file: string): { target: string; anchor: string | undefined }[] {
  const text = withoutCode(readFileSync(file, 'utf8'))
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((href) => !/^[a-z]+:/.test(href))
    .map((href) => {
      const [file_, anchor] = href.split('#')
      return { target: file_ ? path.resolve(path.dirname(file), file_) : file, anchor }
    })
}

describe('documentation', () => {
  it('README.md is under 400 lines', () => {
    const lines = readFileSync(README, 'utf8').split('\n').length
    assert.ok(lines < 400, `README.md has ${lines} lines`)
  })

  it('README.md links every page under docs/ from its Documentation list', () => {
    const readme = readFileSync(README, 'utf8')
    const section = readme.slice(readme.indexOf('## Documentation'))
    assert.ok(readme.includes('## Documentation'), 'README.md has no "## Documentation" heading')
    const listed = new Set([...section.matchAll(/^- \[[^\]]*\]\(docs\/([^)#]+)\)/gm)].map((m) => m[1]))
    const pages = markdownUnder(DOCS).map((f) => path.relative(DOCS, f))
    assert.deepEqual(
      pages.filter((p) => !listed.has(p)),
      [],
    )
  })

  it('every relative link in README.md, docs/ and bench/results/ lands on a file and heading that exist', () => {
    const broken: string[] = []
    for (const file of [README, ...markdownUnder(DOCS), ...markdownUnder(RUN_RECORDS)]) {
      for (const { target, anchor } of relativeLinks(file)) {
        const where = `${path.relative(repoRoot, file)} -> ${path.relative(repoRoot, target)}${anchor ? `#${anchor}` : ''}`
        if (!existsSync(target)) {
          broken.push(`${where} (no such file)`)
          continue
        }
        if (anchor && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)) broken.push(`${where} (no such heading)`)
      }
    }
    assert.deepEqual(broken, [])
  })

  it('no heading of README.md or docs/ carries a date', () => {
    const dated = [README, ...markdownUnder(DOCS)].flatMap((file) =>
      [...withoutCode(readFileSync(file, 'utf8')).matchAll(/^#{1,6}\s+(.+)$/gm)]
        .filter((m) => DATE.test(m[1]))
        .map((m) => `${path.relative(repoRoot, file)}: ${m[0]}`),
    )
    assert.deepEqual(dated, [])
  })

  it('no file under src/ cites design notes outside the repository', () => {
    const citing = filesUnder(path.join(repoRoot, 'src'))
      .filter((f) => CITATION.test(readFileSync(f, 'utf8')))
      .map((f) => path.relative(repoRoot, f))
    assert.deepEqual(citing, [])
  })
})
