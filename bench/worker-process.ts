/**
 * A benchmark worker in a process of its own (bench/worker-child.ts), driven over IPC:
 * `request('start', 'started')`, `request('status', 'status')`, ... and `stop()`.
 */
import { fork } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))

export interface BenchWorker {
  request<T>(cmd: string, type: string): Promise<T>
  stop(): Promise<void>
}

export interface BenchWorkerOptions {
  url: string
  batch: number
  concurrency: number
  execArgv?: string[]
  env?: Record<string, string>
  /** The child module: aizk's Worker (default), or section l's bare floor (latency-floor-child.ts). */
  child?: 'worker-child.ts' | 'latency-floor-child.ts'
}

export function forkBenchWorker(opts: BenchWorkerOptions): Promise<BenchWorker> {
  const child = fork(path.join(here, opts.child ?? 'worker-child.ts'), [opts.url, String(opts.batch), String(opts.concurrency)], {
    execArgv: ['--import', 'tsx', ...(opts.execArgv ?? [])],
    env: { ...process.env, AIZK_POLL_INTERVAL_SECONDS: '1', ...opts.env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const waiting = new Map<string, (m: unknown) => void>()
  child.on('message', (m: { type: string }) => {
    const w = waiting.get(m.type)
    waiting.delete(m.type)
    w?.(m)
  })
  const waitFor = <T>(type: string) => new Promise<T>((resolve) => waiting.set(type, resolve as (m: unknown) => void))
  const request = <T>(cmd: string, type: string) => {
    const p = waitFor<T>(type)
    child.send({ cmd })
    return p
  }
  return waitFor('loaded').then(() => ({
    request,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r))
      await request('stop', 'stopped')
      await exited
    },
  }))
}
