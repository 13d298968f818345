/**
 * The process's chat requests in flight, at most `llmConcurrency` (AIZK_LLM_CONCURRENCY) at once:
 * projection jobs of several chunks run side by side, and each asks for a slot before calling
 * the model. A request that waits holds no database connection or transaction.
 */
let active = 0
const waiting: (() => void)[] = []

export async function withLlmSlot<T>(limit: number, call: () => Promise<T>): Promise<T> {
  if (active >= Math.max(1, limit)) await new Promise<void>((resolve) => waiting.push(resolve))
  else active++
  try {
    return await call()
  } finally {
    const next = waiting.shift()
    if (next) next()
    else active--
  }
}
