/**
 * What the failover test reads from the workers' event lines and the database after each switch
 * of leader: how long until every worker picked again, how many times each job ran, which cron
 * ticks fired, and which acknowledged jobs have no successful log row.
 */
import pg from 'pg'
import type { Acknowledged } from './ha-load.js'
import type { WorkerEvent, WorkerProcess } from './worker-process.js'

const at = (e: WorkerEvent) => Date.parse(e.ts)

/** Per worker, ms from `since` to its first pick at or after it; undefined when it has not picked. */
export function resumeMs(workers: WorkerProcess[], since: number): (number | undefined)[] {
  return workers.map((w) => {
    const first = w.events.find((e) => e.event === 'job:picked' && at(e) >= since)
    return first ? at(first) - since : undefined
  })
}

/** How many times each job id was picked, and completed, across every worker. */
export function runsPerJob(workers: WorkerProcess[], event: 'job:picked' | 'job:completed'): Map<string, number> {
  const runs = new Map<string, number>()
  for (const w of workers) for (const e of w.events) if (e.event === event) runs.set(e.jobId as string, (runs.get(e.jobId as string) ?? 0) + 1)
  return runs
}

export interface Fire {
  /** The tick's scheduled time (ms). */
  tick: number
  /** When the worker reported it fired (ms). */
  at: number
}

/** The ticks of `cronEntrypoint` that fired, in order of their scheduled time, with repeats. */
export function firedTicks(workers: WorkerProcess[], cronEntrypoint: string): Fire[] {
  return workers
    .flatMap((w) => w.events.filter((e) => e.event === 'schedule:fired' && e.cronEntrypoint === cronEntrypoint))
    .map((e) => ({ tick: Date.parse(e.scheduledFor as string), at: at(e) }))
    .sort((a, b) => a.tick - b.tick)
}

/**
 * Repeated ticks; gaps between consecutive ticks that an outage explains (a tick missed while no
 * leader took writes fires once when one does: next_run jumps past now) or that a late fire
 * explains (a fire that came after the next tick was due skips it the same way: the scheduler's
 * coalescing, not the switch); and the gaps neither explains.
 */
export function tickProblems(fires: Fire[], outages: [number, number][]): { doubled: number; outageGaps: number; lateGaps: number; unexplainedGaps: string[] } {
  let doubled = 0
  let outageGaps = 0
  let lateGaps = 0
  const unexplainedGaps: string[] = []
  for (let i = 1; i < fires.length; i++) {
    const [prev, next] = [fires[i - 1], fires[i]]
    if (next.tick === prev.tick) doubled++
    else if (next.tick - prev.tick > 1000) {
      if (outages.some(([from, to]) => from <= next.at && to + 2000 >= prev.tick)) outageGaps++
      else if (prev.at >= prev.tick + 950) lateGaps++
      else unexplainedGaps.push(`${new Date(prev.tick).toISOString()} (fired ${prev.at - prev.tick} ms late) -> ${new Date(next.tick).toISOString()}`)
    }
  }
  return { doubled, outageGaps, lateGaps, unexplainedGaps }
}

/** Per acknowledged job, how many successful log rows it has and whether it is still in the queue table. */
export async function outcomes(url: string, jobs: Acknowledged[]): Promise<{ successful: Map<string, number>; queued: Set<string> }> {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    const ids = jobs.map((j) => j.id)
    const log = await c.query<{ id: string; n: number }>(
      "select job_id::text as id, count(*)::int as n from pgqueuer_log where job_id = any($1::bigint[]) and status = 'successful' group by 1",
      [ids],
    )
    const left = await c.query<{ id: string }>('select id::text from pgqueuer where id = any($1::bigint[])', [ids])
    return { successful: new Map(log.rows.map((r) => [r.id, r.n])), queued: new Set(left.rows.map((r) => r.id)) }
  } finally {
    await c.end()
  }
}

/** How many handler runs of each job wrote their row (test_record's test_runs). */
export async function recordedRuns(url: string): Promise<Map<string, number>> {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    const { rows } = await c.query<{ id: string; n: number }>('select job_id::text as id, count(*)::int as n from test_runs group by 1')
    return new Map(rows.map((r) => [r.id, r.n]))
  } finally {
    await c.end()
  }
}

/**
 * Acknowledged test_record jobs whose handler never wrote their row (test_runs: job id and tag):
 * after an asynchronous failover the new leader's id sequence can hand a lost job's id to a new
 * one, so an id alone does not tell a lost job from a later one.
 */
export async function unrecorded(url: string, jobs: Acknowledged[]): Promise<Acknowledged[]> {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    const { rows } = await c.query<{ key: string }>("select job_id::text || ':' || note as key from test_runs where note like 'load-%'")
    const seen = new Set(rows.map((r) => r.key))
    return jobs.filter((j) => !seen.has(`${j.id}:${j.tag}`))
  } finally {
    await c.end()
  }
}

/** Connections of the workers' LISTEN links (application_name aizk-listen) on one node. */
export async function listenLinks(nodeUrl: string): Promise<number> {
  const c = new pg.Client({ connectionString: nodeUrl })
  await c.connect()
  try {
    const { rows } = await c.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where application_name = 'aizk-listen'")
    return rows[0].n
  } finally {
    await c.end()
  }
}
