import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { binPath, cleanEnv, repoRoot, runCli } from '../support/cli.js'
import { fileDatabase } from '../support/db.js'
import { lastFrameOf, runInPty, stripAnsi } from '../support/pty.js'
import { workerEnv } from '../support/worker-process.js'

const db = await fileDatabase()

/** Resolves when `test` passes on the output, re-checked as output arrives. */
function waitForOutput(read: () => string, child: import('node:child_process').ChildProcess, test: (text: string) => boolean, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const text = stripAnsi(read())
      if (test(text)) {
        cleanup()
        resolve(text)
      }
    }
    const onClose = () => {
      cleanup()
      reject(new Error(`terminal closed before ${what}:\n${stripAnsi(read())}`))
    }
    const cleanup = () => {
      child.stdout?.off('data', check)
      child.off('close', onClose)
    }
    child.stdout?.on('data', check)
    child.on('close', onClose)
    check()
  })
}

describe('aizk worker end to end: the live view in a terminal', () => {
  it('draws picks, totals and in-flight counts in a pseudo-terminal, and drains on SIGTERM', async () => {
    await enqueueMany(
      db.pool,
      Array.from({ length: 500 }, (_, i) => ({ entrypoint: 'test_noop', payload: { i }, priority: i % 2 ? 10 : 50 })),
    )
    const run = runInPty([process.execPath, binPath, 'worker'], {
      cwd: repoRoot,
      env: cleanEnv(workerEnv(db.url, { AIZK_WORKER_ENTRYPOINTS: 'test_noop' })),
    })
    let pid = 0
    try {
      const text = await waitForOutput(run.output, run.child, (t) => /completed 500\b/.test(t), 'the view counting 500 completions')
      pid = Number(text.match(/pid (\d+)/)?.[1])
      assert.ok(pid > 0, 'the header names the worker pid')
      process.kill(pid, 'SIGTERM')
      const code = await run.exited
      assert.equal(code, 0, stripAnsi(run.output()))
      const raw = run.output()
      // biome-ignore lint/suspicious/noControlCharactersInRegex: a terminal view draws with escape codes
      assert.match(raw, /\u001b\[/)
      assert.doesNotMatch(raw, /"event":"job:picked"/, 'no JSON lines on a terminal')
      const frame = lastFrameOf(raw, 'aizk worker')
      assert.match(frame, /aizk worker [0-9a-f]{8} · .* pid \d+ · (draining|stopped)/)
      assert.match(frame, /total picked 500 · completed 500 · retried 0 · held 0/)
      assert.match(frame, /test_noop\s+0\/∞\s+500\s+500\s+0\s+0/)
      // The last picks hold the priority-10 rows, unless two picks were on the server at once and
      // the one with priority-50 rows came back last (their jobs still start in priority order).
      assert.match(frame, /latest picks\n(\s+\S+ test_noop\s+#\d+\s+p(10|50)\s+wait \S+\s+completed.*\n){8}/)
    } finally {
      if (pid) {
        try {
          process.kill(pid, 'SIGKILL')
        } catch {}
      }
      if (run.child.exitCode === null) run.child.kill('SIGKILL')
    }
  })

  it('marks an entrypoint paused with `aizk pause` in the running view, and clears the mark on `aizk resume`', async () => {
    const env = workerEnv(db.url, { AIZK_WORKER_ENTRYPOINTS: 'test_noop,test_record' })
    const run = runInPty([process.execPath, binPath, 'worker'], { cwd: repoRoot, env: cleanEnv(env) })
    const frame = (t: string) => lastFrameOf(t, 'aizk worker')
    let pid = 0
    try {
      const started = await waitForOutput(run.output, run.child, (t) => /2 entrypoints/.test(frame(t)), 'the view naming its entrypoints')
      pid = Number(started.match(/pid (\d+)/)?.[1])
      assert.doesNotMatch(frame(started), /paused/)
      const paused = await runCli(['pause', 'test_record', '--reason', 'pty test'], { env })
      assert.equal(paused.code, 0, paused.stderr)
      // The pty delivers a frame in pieces: wait for the row too, not only the header above it.
      const pausedRow = /test_record\s+0\/∞.* paused/
      const seen = frame(
        await waitForOutput(
          run.output,
          run.child,
          (t) => {
            const f = frame(t)
            return /1 paused/.test(f) && pausedRow.test(f)
          },
          'the paused count and row',
        ),
      )
      assert.match(seen, /2 entrypoints · 1 paused/)
      assert.match(seen, pausedRow)
      assert.doesNotMatch(seen, /test_noop.*paused/)
      const resumed = await runCli(['resume', 'test_record'], { env })
      assert.equal(resumed.code, 0, resumed.stderr)
      await waitForOutput(run.output, run.child, (t) => /test_record\s+0\/∞/.test(frame(t)) && !/paused/.test(frame(t)), 'the mark cleared')
      process.kill(pid, 'SIGTERM')
      assert.equal(await run.exited, 0, stripAnsi(run.output()))
    } finally {
      if (pid) {
        try {
          process.kill(pid, 'SIGKILL')
        } catch {}
      }
      if (run.child.exitCode === null) run.child.kill('SIGKILL')
    }
  })
})
