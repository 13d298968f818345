// The shape of the house, checked: the core never knows it is a CLI nor reads the environment,
// and every command's flags are shown in an example of its --help.
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { repoRoot } from '../support/cli.js'

const CORE = ['db', 'queue', 'scope', 'jobs', 'scheduler', 'worker', 'app', 'content', 'ingest', 'convert', 'chunking', 'embedding', 'backup', 'usage', 'graph']

/**
 * Each part of src/ and its rank (docs/architecture.md#layers): a file may import from its own
 * part or a lower rank, never a higher one, and never a sibling of the same rank unless
 * SIBLING_IMPORTS allows it. A new folder must be given its rank here.
 */
const RANK: Record<string, number> = {
  errors: 0,
  'permanent-error': 0,
  settings: 0,
  'settings-types': 0,
  cron: 0,
  events: 0,
  tracing: 0,
  db: 1,
  queue: 2,
  scope: 3,
  chunking: 4,
  embedding: 4,
  content: 4,
  convert: 4,
  usage: 4,
  backup: 4,
  graph: 5,
  ingest: 5,
  jobs: 6,
  'jobs/inventory': 7,
  scheduler: 8,
  worker: 9,
  app: 10,
  operator: 11,
  ui: 12,
  cli: 13,
  mcp: 13,
  dashboard: 13,
  commands: 14,
  index: 15,
  'index-jobs': 15,
  'index-graph': 15,
}

/**
 * The imports allowed between parts of the same rank, each with its reason (the table in
 * docs/architecture.md#layers has the same list). Any other same-rank import fails.
 */
const SIBLING_IMPORTS: Record<string, string[]> = {
  // The settings schema is one concern split in files: its types use cron parsing, its failures are ConfigErrors.
  settings: ['errors', 'settings-types'],
  'settings-types': ['cron'],
  // A job's span is ended from the worker's typed events.
  tracing: ['events'],
  // The document writer enqueues chunk projections through the entrypoint ingest owns.
  graph: ['ingest'],
}

/**
 * The part a file under src/ belongs to: its longest RANK key (a folder, or a top-level file).
 * A feature's settings declarations (`src/<feature>/settings.ts`) belong to the settings part,
 * rank 0, wherever they live: the composer (src/settings.ts) joins them all, and every part may
 * read the composed type (docs/architecture.md#layers). src/commands/settings.ts is a command.
 */
function partOf(file: string): string {
  const rel = path.relative(path.join(repoRoot, 'src'), file).replaceAll(path.sep, '/')
  if (rel.endsWith('/settings.ts') && !rel.startsWith('commands/')) return 'settings'
  const keys = Object.keys(RANK).sort((a, b) => b.length - a.length)
  return keys.find((k) => rel.startsWith(`${k}/`) || rel.replace(/\.tsx?$/, '') === k) ?? `(no rank) ${rel}`
}

/** Every relative import (static, re-export or dynamic) of a source file, resolved to a path. */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specs = [...text.matchAll(/(?:^\s*(?:import|export)[^'"]*?from\s*|import\()\s*['"](\.[^'"]+)['"]/gm)].map((m) => m[1])
  return specs.map((spec) => path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts'))
}

/** Upward and unlisted same-rank imports among `files`: `from -> to` lines, empty when the layers point one way. */
export function upwardImports(files: string[]): string[] {
  const out: string[] = []
  for (const file of files) {
    const from = partOf(file)
    for (const target of relativeImports(file)) {
      const to = partOf(target)
      if (to === from) continue
      const sibling = RANK[to] === RANK[from] && !SIBLING_IMPORTS[from]?.includes(to)
      if (!(from in RANK) || !(to in RANK) || RANK[to] > RANK[from] || sibling) {
        out.push(`${path.relative(repoRoot, file)} (${from}) imports ${path.relative(repoRoot, target)} (${to})`)
      }
    }
  }
  return out
}

/** `file:line` of every `process.env` (also `process\n.env`, `process['env']`) outside comments. */
export function envReads(files: string[]): string[] {
  const out: string[] = []
  for (const file of files) {
    const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, (c) => c.replace(/[^\n]/g, ' '))
    for (const m of code.matchAll(/\bprocess\s*(?:\??\.\s*env\b|\[\s*['"`]env['"`]\s*\])/g)) {
      out.push(`${path.relative(repoRoot, file)}:${code.slice(0, m.index).split('\n').length}`)
    }
  }
  return out
}

/** `file:line` of every comment that names an issue or one of its parts instead of saying why. */
export function commentsNamingIssues(files: string[]): string[] {
  const out: string[] = []
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    for (const m of text.matchAll(/\/\*[\s\S]*?\*\/|\/\/.*$/gm)) {
      const hit = /\bissues?\s*#?\d+|\bpart (one|two|three|four)\b|(^|[\s(])#\d+\b/i.exec(m[0])
      if (hit) out.push(`${path.relative(repoRoot, file)}:${text.slice(0, m.index + hit.index).split('\n').length}`)
    }
  }
  return out
}

/** A string or template literal that is an SQL statement (the convention: docs/architecture.md#sql). */
const SQL_STATEMENT =
  /^\s*\(?\s*(SELECT\s[\s\S]*\b(FROM|AS)\b|SELECT\s+\w+\(|INSERT\s+INTO\s|UPDATE\s+\w+(\s+\w+)?\s+SET\s|DELETE\s+FROM\s|WITH\s+(RECURSIVE\s+)?\w+\s+AS\s*\(|VACUUM\b(\s*\([^)]*\))?\s+[\w.]+\s*$|LOCK\s+TABLE\s|LISTEN\s|NOTIFY\s|BEGIN\b[\s\w]*;|CREATE\s+(TABLE|DATABASE)\s)/i

/** The top-level declaration a position is in starts with `export`. */
function inExportedDeclaration(text: string, at: number): boolean {
  const declaration = text
    .slice(0, at)
    .match(/^(export\s+)?(const|let|(async\s+)?function|class|interface|type)\b/gm)
    ?.at(-1)
  return declaration?.startsWith('export') ?? false
}

/**
 * `file:line` of every SQL statement written in a source file outside a `sql/` folder; with
 * `besideCaller`, only those the rule of docs/architecture.md#sql keeps in `sql/`: a statement
 * may live in the module that runs it when it is one line, or when the module keeps it to itself
 * (not exported); a statement other modules import lives in the `sql/` folder of its layer.
 */
export function sqlOutsideSqlFolders(files: string[], { besideCaller = false } = {}): string[] {
  const out: string[] = []
  for (const file of files) {
    if (file.split(path.sep).includes('sql')) continue
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, (c) => c.replace(/[^\n]/g, ' '))
    for (const m of text.matchAll(/`(?:[^`\\]|\\.)*`|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g)) {
      if (besideCaller && (!m[0].includes('\n') || !inExportedDeclaration(text, m.index))) continue
      if (SQL_STATEMENT.test(m[0].slice(1, -1))) out.push(`${path.relative(repoRoot, file)}:${text.slice(0, m.index).split('\n').length}`)
    }
  }
  return out
}

/** `file imports package` for every import (static, type, re-export or dynamic) of a package `banned` forbids to the file's part. */
export function frameworkImports(
  banned: Record<string, RegExp>,
  files = Object.keys(banned).flatMap((part) => sources(path.join(repoRoot, 'src', part))),
): string[] {
  const out: string[] = []
  for (const file of files) {
    const rule = banned[partOf(file)]
    if (!rule) continue
    const text = readFileSync(file, 'utf8')
    for (const m of text.matchAll(/(?:^\s*(?:import|export)[^'"]*?from\s*|^\s*import\s*|import\()\s*['"]([^'"]+)['"]/gm)) {
      if (rule.test(m[1])) out.push(`${path.relative(repoRoot, file)} imports ${m[1]}`)
    }
  }
  return out
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    return statSync(full).isDirectory() ? sources(full) : /\.tsx?$/.test(name) ? [full] : []
  })
}

/** Past this a file does more than one thing (docs/architecture.md#small-files). */
const MAX_SOURCE_LINES = 300

describe('architecture', () => {
  it('core modules import neither oclif, ink, react nor the CLI layers', () => {
    const offenders: string[] = []
    for (const area of CORE) {
      for (const file of sources(path.join(repoRoot, 'src', area))) {
        const text = readFileSync(file, 'utf8')
        for (const m of text.matchAll(/^\s*import[^'"]*['"]([^'"]+)['"]/gm)) {
          const spec = m[1]
          if (/^(@oclif\/|ink($|\/)|react($|\/)|chalk$)/.test(spec) || /\/(cli|commands|ui|operator|mcp|dashboard)\//.test(`${spec}/`)) {
            offenders.push(`${path.relative(repoRoot, file)} imports ${spec}`)
          }
        }
      }
    }
    assert.deepEqual(offenders, [])
  })

  it('the operator layer, the dashboard and the MCP server import no CLI or terminal framework, and the ink views no oclif', () => {
    const banned: Record<string, RegExp> = {
      operator: /^(@oclif\/|ink($|\/)|react($|\/))/,
      dashboard: /^(@oclif\/|ink($|\/)|react($|\/))/,
      mcp: /^(@oclif\/|ink($|\/)|react($|\/))/,
      ui: /^@oclif\//,
    }
    assert.deepEqual(frameworkImports(banned), [])
  })

  it('the framework check finds an oclif import in the operator layer', () => {
    const dir = mkdtempSync(path.join(repoRoot, 'src', 'operator', '.framework-probe-'))
    try {
      const probe = path.join(dir, 'probe.ts')
      writeFileSync(probe, "import { Flags } from '@oclif/core'\nimport { render } from 'ink'\nexport const f = [Flags, render]\n")
      const rel = path.relative(repoRoot, probe)
      assert.deepEqual(frameworkImports({ operator: /^(@oclif\/|ink($|\/))/ }, [probe]), [`${rel} imports @oclif/core`, `${rel} imports ink`])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('only src/cli and src/commands read process.env: they hand it down as settings.env', () => {
    const below = sources(path.join(repoRoot, 'src')).filter((f) => !['cli', 'commands'].includes(partOf(f)))
    assert.deepEqual(envReads(below), [])
  })

  it('the environment check fails on a read', () => {
    const dir = mkdtempSync(path.join(repoRoot, 'src', 'db', '.env-probe-'))
    try {
      const probe = path.join(dir, 'probe.ts')
      writeFileSync(probe, "export const home = process.env['HOME'] ?? process\n  .env.XDG_DATA_HOME\n")
      assert.deepEqual(envReads([probe]), [`${path.relative(repoRoot, probe)}:1`, `${path.relative(repoRoot, probe)}:1`])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('imports point down the layers: no file imports a part of higher rank, nor an unlisted sibling', () => {
    assert.deepEqual(upwardImports(sources(path.join(repoRoot, 'src'))), [])
  })

  it('the rank check fails on an upward import', () => {
    const dir = mkdtempSync(path.join(repoRoot, 'src', 'queue', '.rank-probe-'))
    try {
      const probe = path.join(dir, 'probe.ts')
      writeFileSync(probe, "import { Worker } from '../../worker/worker.js'\nexport const w = Worker\n")
      assert.deepEqual(upwardImports([probe]), [`${path.relative(repoRoot, probe)} (queue) imports src/worker/worker.ts (worker)`])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('the rank check fails on an import between siblings of the same rank', () => {
    const dir = mkdtempSync(path.join(repoRoot, 'src', 'backup', '.rank-probe-'))
    try {
      const probe = path.join(dir, 'probe.ts')
      writeFileSync(probe, "import { ConverterMissingError } from '../../convert/errors.js'\nexport const e = ConverterMissingError\n")
      assert.deepEqual(upwardImports([probe]), [`${path.relative(repoRoot, probe)} (backup) imports src/convert/errors.ts (convert)`])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('an allowed sibling import is one way: the listed pair does not allow its reverse', () => {
    const dir = mkdtempSync(path.join(repoRoot, 'src', 'ingest', '.rank-probe-'))
    try {
      const probe = path.join(dir, 'probe.ts')
      writeFileSync(probe, "import { x } from '../../graph/index.js'\nexport const y = x\n")
      assert.deepEqual(upwardImports([probe]), [`${path.relative(repoRoot, probe)} (ingest) imports src/graph/index.ts (graph)`])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('no source file is over 300 lines: a longer one does more than one thing and is split', () => {
    const long = sources(path.join(repoRoot, 'src'))
      .map((file) => ({ file: path.relative(repoRoot, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > MAX_SOURCE_LINES)
      .map((f) => `${f.file}: ${f.lines} lines`)
    assert.deepEqual(long, [])
  })

  it('no comment in src/ names an issue or a part of one', () => {
    assert.deepEqual(commentsNamingIssues(sources(path.join(repoRoot, 'src'))), [])
  })

  it('the comment check finds an issue number and a part name', () => {
    const dir = mkdtempSync(path.join(repoRoot, 'src', 'db', '.comment-probe-'))
    try {
      const probe = path.join(dir, 'probe.ts')
      writeFileSync(probe, "// faster (issue 15)\nexport const a = 1\n/**\n * built in part two, see #12\n */\nexport const b = 'issue 3'\n")
      const rel = path.relative(repoRoot, probe)
      assert.deepEqual(commentsNamingIssues([probe]), [`${rel}:1`, `${rel}:4`])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('SQL text lives beside its caller or in the sql/ folder of its layer, and commands write none', () => {
    const layers = ['queue', 'scope', 'db', 'content', 'ingest', 'backup', 'usage', 'graph']
    assert.deepEqual(
      sqlOutsideSqlFolders(
        layers.flatMap((l) => sources(path.join(repoRoot, 'src', l))),
        { besideCaller: true },
      ),
      [],
    )
    assert.deepEqual(sqlOutsideSqlFolders(sources(path.join(repoRoot, 'src', 'commands'))), [])
  })

  it('the SQL check finds a statement outside sql/ and not one inside, and, beside its caller, lets a one-line or unexported statement be', () => {
    const dir = mkdtempSync(path.join(repoRoot, 'src', 'queue', '.sql-probe-'))
    try {
      const probe = path.join(dir, 'probe.ts')
      writeFileSync(
        probe,
        "export const a = 'Delete held jobs for good'\nexport const b = `SELECT id\n  FROM pgqueuer`\nexport const d = 'SELECT id FROM pgqueuer'\nconst e = `SELECT id\n  FROM pgqueuer`\n",
      )
      mkdirSync(path.join(dir, 'sql'))
      const inside = path.join(dir, 'sql', 'probe.ts')
      writeFileSync(inside, "export const c = 'DELETE FROM pgqueuer WHERE id = $1'\n")
      const rel = path.relative(repoRoot, probe)
      assert.deepEqual(sqlOutsideSqlFolders([probe, inside], { besideCaller: true }), [`${rel}:2`])
      assert.deepEqual(sqlOutsideSqlFolders([probe, inside]), [`${rel}:2`, `${rel}:4`, `${rel}:5`])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
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
