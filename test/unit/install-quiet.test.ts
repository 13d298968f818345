/**
 * `npm ci` (its `prepare` builds) and `npm test` print no update nag: npm's own "new version of
 * npm available" notice is off in the project's .npmrc, and oclif's (the build's `oclif
 * manifest`, `npm run readme`) is skipped by OCLIF_SKIP_NEW_VERSION_CHECK in the scripts.
 */
import assert from 'node:assert/strict'
import { execFile, execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { repoRoot } from '../support/cli.js'

const run = promisify(execFile)
const cache = mkdtempSync(path.join(os.tmpdir(), 'aizk-oclif-cache-'))
after(() => rmSync(cache, { recursive: true, force: true }))

/** oclif's stderr for `oclif --version` under `env`, with a cache that says a newer oclif exists. */
async function oclifStderr(env: Record<string, string>): Promise<string> {
  mkdirSync(path.join(cache, 'oclif'), { recursive: true })
  writeFileSync(path.join(cache, 'oclif', 'version'), JSON.stringify({ latest: '99.0.0' }))
  rmSync(path.join(cache, 'oclif', 'last-warning'), { force: true })
  const { stderr } = await run(path.join(repoRoot, 'node_modules/.bin/oclif'), ['--version'], {
    cwd: repoRoot,
    env: { ...process.env, XDG_CACHE_HOME: cache, ...env },
  })
  return stderr
}

describe('installing and building print no update nag', () => {
  it("npm's update notifier is off in the project", () => {
    assert.equal(execFileSync('npm', ['config', 'get', 'update-notifier'], { cwd: repoRoot, encoding: 'utf8' }).trim(), 'false')
  })

  it('every script that runs oclif skips its new-version check, which would warn otherwise', async () => {
    const scripts: Record<string, string> = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).scripts
    const oclifRuns = Object.values(scripts)
      .flatMap((s) => s.split('&&').map((part) => part.trim()))
      .filter((part) => /(^|\s)oclif\s/.test(part))
    assert.ok(oclifRuns.length >= 2, 'build:dev and readme run oclif')
    for (const part of oclifRuns) assert.match(part, /^OCLIF_SKIP_NEW_VERSION_CHECK=true oclif /, part)
    assert.match(await oclifStderr({}), /update available/, 'the fake cache makes oclif warn')
    assert.doesNotMatch(await oclifStderr({ OCLIF_SKIP_NEW_VERSION_CHECK: 'true' }), /update available/)
  })
})
