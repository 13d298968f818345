/**
 * CPU-heavy steps of the weekly graph passes (Louvain, RAPTOR's clustering) off the worker's
 * loop: seconds of CPU on the loop would stall the worker's picks and heartbeats for as long.
 * Like extraction (extract-pool.ts) they run on a piscina thread, a little nicer than the loop.
 * A pass runs weekly, so its thread lives for one step: started here and destroyed when the
 * answer is back, and no pool outlives the job for the worker to close. Callers hand over packed
 * typed arrays in `transfer` (moved, not copied).
 */
import { Piscina } from 'piscina'

/** Under tsx (tests, benchmarks) the thread loads the TypeScript source; built, the .js. */
export function threadModule(base: string, name: string): string {
  const ext = base.endsWith('.ts') ? 'ts' : 'js'
  return new URL(`./${name}.${ext}`, base).href
}

const THREAD_NICE = 5

export type RunTask = <R>(task: unknown, transfer: ArrayBufferLike[]) => Promise<R>

/** One thread for the length of `fn`, which may run several tasks on it (RAPTOR: one per level). */
export async function withThread<T>(filename: string, fn: (run: RunTask) => Promise<T>, signal?: AbortSignal): Promise<T> {
  const pool = new Piscina({ filename, minThreads: 1, maxThreads: 1, niceIncrement: THREAD_NICE })
  const run: RunTask = async <R>(task: unknown, transfer: ArrayBufferLike[]) =>
    (await pool.run(task, { transferList: transfer as ArrayBuffer[], ...(signal ? { signal } : {}) })) as R
  try {
    return await fn(run)
  } finally {
    await pool.destroy()
  }
}

export function runOnThread<R>(filename: string, task: unknown, transfer: ArrayBufferLike[], signal?: AbortSignal): Promise<R> {
  return withThread(filename, (run) => run<R>(task, transfer), signal)
}
