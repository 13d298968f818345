/** A real `aizk worker` process (bin/run.js over dist/) with its JSON lines collected. */
import { type ChildProcess, spawn } from 'node:child_process'
import { binPath, cleanEnv } from '../../helpers/cli.js'

export interface WorkerProcess {
  child: ChildProcess
  lines: Record<string, unknown>[]
  stderr: () => string
  stop(): Promise<number | null>
}

export function startWorker(env: Record<string, string>): WorkerProcess {
  const child = spawn(process.execPath, [binPath, 'worker'], {
    env: cleanEnv({ AIZK_WORKER_OUTPUT: 'json', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const lines: Record<string, unknown>[] = []
  let buffer = ''
  let err = ''
  child.stdout?.on('data', (d) => {
    buffer += d
    let nl = buffer.indexOf('\n')
    while (nl !== -1) {
      const line = buffer.slice(0, nl)
      buffer = buffer.slice(nl + 1)
      try {
        lines.push(JSON.parse(line))
      } catch {
        // not a JSON line
      }
      nl = buffer.indexOf('\n')
    }
  })
  child.stderr?.on('data', (d) => {
    err += d
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return {
    child,
    lines,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
      const code = await exited
      clearTimeout(timer)
      return code
    },
  }
}

/** Poll a condition until it holds (a condition, not a sleep); throw with `what` on timeout. */
export async function waitFor<T>(what: string, probe: () => Promise<T | false | null | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}
