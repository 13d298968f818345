/**
 * Retry delay: exponential in the attempt number, capped, with full jitter in its upper half
 * so a burst of failures does not come back as a burst.
 */
export interface BackoffSettings {
  retryBaseSeconds: number
  retryMaxSeconds: number
}

/** Milliseconds to wait before the run that follows failed run number `attempt` (1-based). */
export function retryDelayMs(attempt: number, settings: BackoffSettings, random: () => number = Math.random): number {
  const base = Math.max(0, settings.retryBaseSeconds) * 1000
  const cap = Math.max(0, settings.retryMaxSeconds) * 1000
  const exp = Math.min(cap, base * 2 ** Math.max(0, Math.min(attempt - 1, 30)))
  return Math.round(exp / 2 + (random() * exp) / 2)
}
