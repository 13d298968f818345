/**
 * What the whole machine spent busy (all cores, from /proc/stat; the peer harness's cpuMsPer1k):
 * queue client, PostgreSQL and the bench together. Meaningful only on an otherwise quiet machine.
 */
import fs from 'node:fs'

/** Busy CPU ms of the whole machine so far (NaN where /proc/stat is missing). */
export function cpuBusyMs(): number {
  try {
    const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number)
    const idle = f[3] + (f[4] || 0)
    const total = f.slice(0, 8).reduce((a, b) => a + b, 0)
    return (total - idle) * 10 // USER_HZ = 100
  } catch {
    return Number.NaN
  }
}

/** Busy CPU ms per 1,000 jobs since `since` (a cpuBusyMs() reading). */
export const cpuMsPer1k = (since: number, jobs: number) => ((cpuBusyMs() - since) / jobs) * 1000
