import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { describe, it } from 'node:test'
import { cleanEnv, repoRoot } from '../support/cli.js'
import { lastFrameOf, runInPty } from '../support/pty.js'

const demo = ['test/fixtures/worker-view-demo.tsx']

describe('worker outputs in a real terminal and without one', () => {
  it('draws the live ink view in a spawned pseudo-terminal', async () => {
    const run = runInPty([process.execPath, '--import', 'tsx', ...demo], { cwd: repoRoot, env: cleanEnv() })
    const code = await run.exited
    const raw = run.output()
    assert.equal(code, 0, raw)
    assert.match(raw, /mode=view/)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a terminal view moves the cursor
    assert.match(raw, /\u001b\[/, 'escape codes on a terminal')
    const frame = lastFrameOf(raw, 'aizk worker')
    assert.match(frame, /aizk worker a7c1f0e2 · pty-host pid \d+ · draining/)
    assert.match(frame, /total picked 12,001 · completed 12,000 · retried 0 · held 1/)
    assert.match(frame, /aizk_task_communities\s+0\/1\s+1\s+0\s+0\s+1/)
    assert.match(frame, /demo_noop\s+0\/∞\s+12,000\s+12,000/)
    assert.match(frame, /latest picks\n.*#held-1.*held/)
    assert.match(frame, /latest holds\n.*aizk_task_communities\s+#held-1\s+attempt 5 after 12ms \{5f0c2b1e\}\n\s+RuntimeError: demo hold/)
    assert.match(frame, /next cron fires\n\s+communities\s+in \d+m\s/)
  })

  it('writes JSON lines and no escape codes when stdout is not a terminal', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...demo], { cwd: repoRoot, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => {
      stdout += d
    })
    child.stderr.on('data', (d) => {
      stderr += d
    })
    const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)))
    assert.equal(code, 0, stderr)
    assert.match(stderr, /mode=json/)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: there must be none
    assert.doesNotMatch(stdout, /\u001b/)
    const lines = stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l))
    assert.equal(lines.length, 1 + 1 + 12_000 * 2 + 2 + 1)
    assert.equal(lines.filter((l) => l.event === 'job:completed').length, 12_000)
    assert.ok(lines.every((l) => typeof l.ts === 'string' && typeof l.event === 'string'))
    assert.deepEqual(lines.at(-1), { ts: lines.at(-1).ts, event: 'worker:stopping', reason: 'done', inFlight: 0 })
  })
})
