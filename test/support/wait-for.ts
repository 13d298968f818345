/**
 * The one wait of the tests: poll `check` (a database probe, a frame, a child's output) until it
 * returns something truthy, and return that. No fixed sleeps: it returns as soon as it holds.
 * After `timeoutMs` it fails naming `what`, with `detail()` (what the terminal showed, say).
 */
export interface WaitOptions {
  timeoutMs?: number
  everyMs?: number
  detail?: () => string
}

export async function waitFor<T>(what: string, check: () => T | Promise<T>, opts: number | WaitOptions = {}): Promise<NonNullable<T>> {
  const { timeoutMs = 90_000, everyMs = 50, detail } = typeof opts === 'number' ? { timeoutMs: opts } : opts
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value as NonNullable<T>
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${detail ? `\n${detail()}` : ''}`)
    await new Promise((r) => setTimeout(r, everyMs))
  }
}
