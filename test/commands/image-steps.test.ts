// The container image without Docker: scripts/image-steps.mjs runs the Dockerfile's runtime
// stage in a clean folder (production install without optional dependencies, the build output,
// the entrypoint as an unprivileged user), against a real database of this test's own.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { repoRoot } from '../support/cli.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase({ empty: true })

function runScript(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'scripts', 'image-steps.mjs'), ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => {
      stdout += d
    })
    child.stderr.on('data', (d) => {
      stderr += d
    })
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }))
  })
}

describe('the Dockerfile runtime stage, run in a clean folder', () => {
  it('installs production dependencies only, starts, names the missing embedded server, and drains on SIGTERM', async () => {
    const res = await runScript(['--database-url', db.url])
    assert.equal(res.code, 0, `${res.stdout}\n${res.stderr}`)
    assert.match(res.stdout, /step: the image runs Node 24 \(node:24-bookworm-slim\), a line engines allows/)
    const here = process.versions.node.split('.')[0]
    assert.match(res.stdout, here === '24' ? /step: these steps run on Node v24\.[\d.]+, the image's line\n/ : /not the image's line \(24\)/)
    assert.match(res.stdout, /step: RUN npm ci --omit=dev --omit=optional/)
    assert.match(res.stdout, /node_modules holds no embedded PostgreSQL and no dev tools/)
    const { version } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }
    assert.ok(res.stdout.includes(`step: node /opt/aizk/bin/run.js --version: aizk/${version} `), res.stdout)
    // Exactly one line: what is missing and what to do, exit 3.
    assert.match(
      res.stdout,
      /status --once without AIZK_DATABASE_URL: exit 3: error: AIZK_DATABASE_URL is not set and the embedded PostgreSQL is not installed \(an install without optional dependencies leaves it out\): set AIZK_DATABASE_URL to your server\n/,
    )
    assert.match(res.stdout, /worker, SIGTERM once started: exit 0, drained \(worker:stopped\)/)
    assert.match(res.stdout, /image steps ok/)
  })

  it('builds on Node 22 when asked, and refuses a line engines does not allow before any step', async () => {
    const on22 = await runScript(['--build-arg', 'NODE_VERSION=22', '--base-only'])
    assert.equal(on22.code, 0, on22.stderr)
    assert.match(on22.stdout, /step: the image runs Node 22 \(node:22-bookworm-slim\)/)
    const on18 = await runScript(['--build-arg', 'NODE_VERSION=18'])
    assert.equal(on18.code, 1)
    assert.equal(on18.stdout, '')
    assert.match(
      on18.stderr,
      /^image-steps: the image would run Node 18 \(node:18-bookworm-slim\), a line package.json's engines \(".*"\) does not allow: use one of 20, 22, 24\n$/,
    )
  })
})
