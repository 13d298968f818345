// Every test file that needs a database gets it from test/support/db.ts: fileDatabase() at its top
// level, testDatabase() in a describe block, freshDatabases() for one per test, and the logins from
// fileAppLogin()/testAppLogin(); they create it before, empty it between and drop it after the tests: no file hand-writes a before hook that creates one or an after hook that drops one.
// The allow-list names the setups that are genuinely different, with why.
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { repoRoot } from '../support/cli.js'

const TEST = path.join(repoRoot, 'test')

/** Files whose own hooks make or drop databases or logins, and why the helper does not fit them. */
const ALLOWED: Record<string, string> = {
  'test/support/db.ts': 'the helper itself',
  'test/support/app-login.ts': "the login helper: testAppLogin()'s before hook makes the login",
}

/** A hook that creates a database or login, or drops one: the setup the helper owns. */
const HAND_WRITTEN = {
  before: /\bcreate(Test|Empty)Database\(|\bcreateAppLogin\(/,
  after: /\.drop\(\)/,
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) return name === 'fixtures' ? [] : filesUnder(full)
    return /\.(ts|mts|mjs)$/.test(name) ? [full] : []
  })
}

/** The body of each `before(`/`after(` hook in `source`, found by counting braces from its opening. */
function hookBodies(source: string, hook: 'before' | 'after'): string[] {
  const bodies: string[] = []
  for (const m of source.matchAll(new RegExp(`\\b${hook}(All)?\\(`, 'g'))) {
    const open = source.indexOf('{', m.index)
    if (open < 0) continue
    let depth = 0
    for (let i = open; i < source.length; i++) {
      if (source[i] === '{') depth++
      else if (source[i] === '}' && --depth === 0) {
        bodies.push(source.slice(open, i + 1))
        break
      }
    }
  }
  return bodies
}

describe('test database setup', () => {
  it('no test file hand-writes a before hook that creates a database or an after hook that drops one', () => {
    const offenders: string[] = []
    for (const file of filesUnder(TEST)) {
      const rel = path.relative(repoRoot, file).split(path.sep).join('/')
      if (rel in ALLOWED) continue
      const source = readFileSync(file, 'utf8')
      for (const hook of ['before', 'after'] as const) {
        if (hookBodies(source, hook).some((body) => HAND_WRITTEN[hook].test(body)))
          offenders.push(`${rel}: its ${hook} hook (use fileDatabase() or testDatabase() from test/support/db.ts)`)
      }
    }
    assert.deepEqual(offenders, [])
  })

  it('the allow-list names only files that exist', () => {
    for (const rel of Object.keys(ALLOWED)) assert.ok(statSync(path.join(repoRoot, rel)).isFile(), rel)
  })
})
