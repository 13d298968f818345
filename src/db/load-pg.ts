/**
 * Imports pg without Node's fetch implementation. To tell whether it runs on Cloudflare Workers,
 * pg reads `navigator.userAgent`, or, where there is no `navigator` (Node 20), builds a
 * `Response`: that loads all of fetch (about 20 ms of every database command's start-up) for
 * nothing. Node 21 and later define `navigator`; on Node 20 one stands in while pg loads.
 */
export async function loadPg(): Promise<void> {
  if ('navigator' in globalThis) {
    await import('pg')
    return
  }
  const userAgent = `Node.js/${process.versions.node.split('.')[0]}`
  Object.defineProperty(globalThis, 'navigator', { value: { userAgent }, configurable: true })
  try {
    await import('pg')
  } finally {
    delete (globalThis as { navigator?: unknown }).navigator
  }
}
