/**
 * A real `aizk dashboard` process (bin/run.js over dist/) on a free port: its JSON event lines
 * are collected, the address is read from its first line, and `stop()` ends it with SIGTERM.
 */
import { spawn } from 'node:child_process'
import { binPath, cleanEnv, repoRoot } from '../cli.js'

export interface DashboardProcess {
  url: string
  events: Record<string, unknown>[]
  stderr(): string
  pid: number
  stop(): Promise<number | null>
}

export async function spawnDashboard(env: Record<string, string>, args: string[] = []): Promise<DashboardProcess> {
  const child = spawn(process.execPath, [binPath, 'dashboard', '--json', '--port', '0', ...args], {
    cwd: repoRoot,
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)
  const exited = new Promise<number | null>((resolve) =>
    child.once('close', (code) => {
      process.off('exit', killOnExit)
      resolve(code)
    }),
  )
  const events: Record<string, unknown>[] = []
  let stderr = ''
  let pending = ''
  child.stderr?.setEncoding('utf8').on('data', (c: string) => {
    stderr += c
  })
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      for (const line of lines) {
        const e = JSON.parse(line) as Record<string, unknown>
        events.push(e)
        if (e.event === 'dashboard:listening') resolve(String(e.url))
      }
    })
    exited.then((code) => reject(new Error(`aizk dashboard exited ${code} before listening: ${stderr}`)))
  })
  return {
    url,
    events,
    stderr: () => stderr,
    pid: child.pid ?? 0,
    stop: async () => {
      child.kill('SIGTERM')
      return exited
    },
  }
}
