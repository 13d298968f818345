/**
 * A clean Ctrl-C ends a worker with exit 0 whichever way it was started: `node bin/run.js
 * worker`, and `npx aizk worker`, where npm forwards the terminal's SIGINT to the worker that
 * the terminal signalled already (one process group): that one press drained and then killed
 * the worker (exit 130) when a repeated signal counted as a second press.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { binPath, cleanEnv, repoRoot } from '../support/cli.js'
import { fileDatabase } from '../support/db.js'
import { lastFrameOf, runInPty, stripAnsi } from '../support/pty.js'
import { waitFor } from '../support/wait-for.js'
import { workerEnv } from '../support/worker-process.js'

const db = await fileDatabase()

async function ctrlC(argv: string[], extraEnv: Record<string, string> = {}): Promise<{ code: number; text: string }> {
  const run = runInPty(argv, { cwd: repoRoot, env: cleanEnv(workerEnv(db.url, { AIZK_WORKER_ENTRYPOINTS: 'test_noop', ...extraEnv })) })
  await waitFor('the live view', () => /aizk worker [0-9a-f]{8} .* pid \d+/.test(lastFrameOf(run.output(), 'aizk worker')), {
    detail: () => stripAnsi(run.output()),
  })
  run.child.stdin?.write('\u0003')
  const code = await run.exited
  return { code, text: stripAnsi(run.output()) }
}

describe('Ctrl-C in a terminal', () => {
  it('node bin/run.js worker drains and exits 0', async () => {
    const { code, text } = await ctrlC([process.execPath, binPath, 'worker'])
    assert.equal(code, 0, text)
  })

  // --yes: npx links the clone itself as `aizk` into its cache, asking first on a terminal the first time.
  // Linking runs the clone's `prepare` (rm -rf dist, then build) the first time, under the feet of
  // the test files running beside this one: ignore-scripts links it as it is.
  it('npx aizk worker drains and exits 0', async () => {
    const { code, text } = await ctrlC(['npx', '--yes', 'aizk', 'worker'], { npm_config_ignore_scripts: 'true' })
    assert.equal(code, 0, text)
    assert.match(lastFrameOf(text, 'aizk worker'), /stopped|draining/)
  })
})
