/**
 * What the whole machine spent busy (all cores, from /proc/stat; the peer harness's cpuMsPer1k):
 * queue client, PostgreSQL and the bench together. Meaningful only on an otherwise quiet machine.
 */
import fs from 'node:fs'
import type pg from 'pg'

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

/** utime + stime of a /proc/.../stat file, in ms (USER_HZ = 100); throws where the file is missing. */
function statCpuMs(file: string): number {
  const f = fs.readFileSync(file, 'utf8')
  const after = f.slice(f.lastIndexOf(')') + 2).split(' ')
  return (Number(after[11]) + Number(after[12])) * 10
}

/** CPU ms this process's main thread has used so far (NaN where /proc is missing): its event loop alone. */
export function mainThreadCpuMs(): number {
  try {
    return statCpuMs(`/proc/self/task/${process.pid}/stat`)
  } catch {
    return Number.NaN
  }
}

/**
 * CPU ms each PostgreSQL backend of the pool's database has used so far, by pid (from
 * /proc/<pid>/stat; the server runs on this machine). Unlike cpuBusyMs it leaves out whatever
 * else the machine runs, so it holds on a busy machine.
 */
export async function backendCpuMs(pool: pg.Pool): Promise<Map<number, number>> {
  const { rows } = await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()')
  const out = new Map<number, number>()
  for (const { pid } of rows) {
    try {
      out.set(pid, statCpuMs(`/proc/${pid}/stat`))
    } catch {
      // gone, or another machine's server: not counted
    }
  }
  return out
}

/** What the backends used between two backendCpuMs readings (backends that came later count whole). */
export function backendCpuSpent(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0
  for (const [pid, v] of after) ms += v - (before.get(pid) ?? 0)
  return ms
}

/** Busy CPU ms per 1,000 jobs since `since` (a cpuBusyMs() reading). */
export const cpuMsPer1k = (since: number, jobs: number) => ((cpuBusyMs() - since) / jobs) * 1000
