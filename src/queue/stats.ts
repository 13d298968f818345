/**
 * Queue statistics for `aizk status`: cheap enough to refresh every second on a queue of
 * millions. Live counts come from the trigger-kept count tables, the log's size from the
 * catalogue, the oldest queued age from one index probe per entrypoint, held jobs and stale
 * picks from partial indexes: no statement here counts or scans pgqueuer or pgqueuer_log whole.
 */
import type pg from 'pg'
import type { Queryable } from '../db/queryable.js'
import { withTransaction } from '../db/sql/transaction.js'
import { compactCounts, compactThroughput, readCounts, readThroughput, type ThroughputStats } from './counts.js'
import { listPaused, type PausedEntrypoint } from './pause.js'
import { type LogSize, logSize } from './prune.js'
import { BEGIN_STATS_SNAPSHOT, READ_OLDEST } from './sql/stats.js'
import { type HeldJob, readHeld } from './stats-held.js'
import { readSchedules, type ScheduleInfo } from './stats-schedules.js'
import { type ForeignWorker, readForeignWorkers, readStalePicks, readSuspectPicks, readWorkers, type StalePick, type WorkerInfo } from './stats-workers.js'

export interface EntrypointStats {
  entrypoint: string
  queued: number
  picked: number
  held: number
  /** Priorities with live rows, highest first. */
  priorities: number[]
  /** The registered job's limit (0 = unbounded); null when this process does not know the job. */
  concurrencyLimit: number | null
  /** Seconds the oldest ready queued job has waited (0 when none is ready). */
  oldestQueuedAgeSeconds: number | null
  /** Queued rows whose execute_after is still in the future exist (the earliest's time). */
  nextScheduledAt: string | null
  /** Finished per second over the last 10 seconds. */
  throughputPerSecond: number
  /** Workers leave it out of their picks (`aizk pause`). */
  paused: boolean
}

export interface CountGroup {
  entrypoint: string
  priority: number
  queued: number
  picked: number
  held: number
}

export interface HealthProblem {
  code: 'stale_picks' | 'suspect_picks' | 'stuck_handlers' | 'held_over_threshold' | 'cron_overdue' | 'integrity_failures'
  message: string
}

export interface IntegrityCounts {
  mismatch: number
  missing: number
}

/** `Memory`: what the caller adds about the memory graph (the status command: its backlog). */
export interface QueueStats<Memory = never> {
  generatedAt: string
  totals: { queued: number; picked: number; held: number }
  entrypoints: EntrypointStats[]
  groups: CountGroup[]
  throughput: ThroughputStats
  held: { count: number; threshold: number; jobs: HeldJob[] }
  workers: { timeoutSeconds: number; alive: number; total: number; list: WorkerInfo[]; foreignTimeoutSeconds: number; foreign: ForeignWorker[] }
  stalePicks: { count: number; jobs: StalePick[] }
  /** Foreign picks whose owner has been silent longer than aizk's heartbeat timeout, not yet stale (stats-workers.ts). */
  suspectPicks: { count: number; jobs: StalePick[] }
  schedules: (ScheduleInfo & { enabled: boolean | null })[]
  /** Paused entrypoints (`aizk pause`), whether or not they have rows. */
  paused: PausedEntrypoint[]
  log: LogSize
  /** Artifacts whose stored original failed re-verification (ArtifactIntegrityJob), as `StatsOptions.integrity` counted them. */
  integrity: IntegrityCounts
  health: { healthy: boolean; problems: HealthProblem[] }
  /** The memory graph's backlog and growth-gate decisions, when the caller read them. */
  memory?: Memory
}

export interface StatsOptions {
  heartbeatTimeoutSeconds: number
  /** Picks of queue managers aizk does not know are stale only past this (0 = never). */
  foreignHeartbeatTimeoutSeconds?: number
  /** Judge foreign schedules (PgQueuer's own) for health too; default only aizk's. */
  includeForeignSchedules?: boolean
  /** Held jobs above this are unhealthy (0 = any held job is). */
  heldThreshold: number
  timezone?: string
  /** What this process knows about a job (from the registry). */
  jobInfo?: (entrypoint: string) => { concurrencyLimit: number } | undefined
  /** Whether a schedule's job is enabled; a disabled one is never overdue. Undefined = unknown. */
  scheduleEnabled?: (cronEntrypoint: string) => boolean | undefined
  heldLimit?: number
  /** Counts artifacts that failed re-verification, in the stats' snapshot; unset, both are 0. */
  integrity?: (db: Queryable) => Promise<IntegrityCounts>
  /** Fold count deltas and trim throughput first (needs a pool or a free client). Default true. */
  compact?: boolean
}

/**
 * Throughput rows are folded and trimmed at most this often per process (a dashboard refreshes
 * every second). Housekeeping only: readThroughput sums folded and unfolded rows alike.
 */
const THROUGHPUT_COMPACT_EVERY_MS = 15_000
let lastThroughputCompaction = 0

/** Per entrypoint with queued rows: seconds the oldest ready one has waited, and the earliest not yet due. */
export async function readOldest(db: Queryable, entrypoints: string[]) {
  if (entrypoints.length === 0) return new Map<string, { age: number | null; next: Date | null }>()
  const { rows } = await db.query<{ entrypoint: string; age: number | null; next: Date | null }>(READ_OLDEST, [entrypoints])
  return new Map(rows.map((r) => [r.entrypoint, { age: r.age, next: r.next }]))
}

function checkHealth(s: Omit<QueueStats, 'health'>, includeForeign: boolean): HealthProblem[] {
  const problems: HealthProblem[] = []
  if (s.stalePicks.count > 0) {
    const worst = s.stalePicks.jobs[0]
    problems.push({
      code: 'stale_picks',
      message: `${s.stalePicks.count} picked job(s) have a heartbeat older than ${s.workers.timeoutSeconds}s (${s.workers.foreignTimeoutSeconds}s for foreign workers) (oldest: job ${worst?.id} ${worst?.entrypoint}, ${Math.round(worst?.ageSeconds ?? 0)}s): their worker is gone`,
    })
  }
  if (s.suspectPicks.count > 0) {
    const worst = s.suspectPicks.jobs[0]
    const after = s.workers.foreignTimeoutSeconds > 0 ? `only after ${s.workers.foreignTimeoutSeconds}s` : 'never (AIZK_FOREIGN_HEARTBEAT_TIMEOUT_SECONDS=0)'
    problems.push({
      code: 'suspect_picks',
      message: `${s.suspectPicks.count} job(s) picked by a worker aizk does not know (PgQueuer?) have had no heartbeat from it for over ${s.workers.timeoutSeconds}s (oldest: job ${worst?.id} ${worst?.entrypoint}, ${Math.round(worst?.ageSeconds ?? 0)}s): it is probably dead, and they are picked again ${after}`,
    })
  }
  // A dead worker's row is judged by its stale picks; a live one that says its handlers are stuck, here.
  for (const w of s.workers.list) {
    if (!w.alive || w.stuckCalls <= 0) continue
    const since = w.stuckSince ? ` since ${w.stuckSince}` : ''
    problems.push({
      code: 'stuck_handlers',
      message: `worker ${w.host} pid ${w.pid} (${w.queueManagerId}) has ${w.stuckCalls} handler statement(s) stuck past their deadline (or the job timeout)${since}: their connections are not ending and hold its handlers' pool; its /livez fails, restart it`,
    })
  }
  if (s.held.count > s.held.threshold) {
    problems.push({
      code: 'held_over_threshold',
      message: `${s.held.count} held job(s), over the threshold of ${s.held.threshold} (see \`aizk requeue --dry-run\`)`,
    })
  }
  for (const sch of s.schedules) {
    if (sch.overdue && sch.enabled !== false && (!sch.foreign || includeForeign)) {
      problems.push({
        code: 'cron_overdue',
        message: `schedule ${sch.entrypoint} (${sch.expression}) has not fired for ${Math.round(sch.sinceFireSeconds)}s, over twice its period of ${sch.periodSeconds}s`,
      })
    }
  }
  const broken = s.integrity.mismatch + s.integrity.missing
  if (broken > 0) {
    problems.push({
      code: 'integrity_failures',
      message: `${broken} artifact original(s) failed re-verification (${s.integrity.mismatch} mismatch, ${s.integrity.missing} missing): see artifact.integrity_status`,
    })
  }
  return problems
}

/**
 * Everything `aizk status` shows, read in one REPEATABLE READ snapshot (so the parts agree with
 * each other) with JIT off: these are index probes, and compiling them costs more than running
 * them whenever a never-analyzed small table makes the planner's estimate look big.
 */
export async function queueStats(db: pg.Pool, opts: StatsOptions): Promise<QueueStats> {
  if (opts.compact !== false) {
    await compactCounts(db)
    if (Date.now() - lastThroughputCompaction >= THROUGHPUT_COMPACT_EVERY_MS) {
      lastThroughputCompaction = Date.now()
      await compactThroughput(db)
    }
  }
  return withTransaction(db, (client) => readStats(client, opts), BEGIN_STATS_SNAPSHOT)
}

async function readStats(db: Queryable, opts: StatsOptions): Promise<QueueStats> {
  const counts = await readCounts(db)
  const groups = new Map<string, CountGroup>()
  for (const c of counts) {
    const key = `${c.entrypoint}\u0000${c.priority}`
    const g = groups.get(key) ?? { entrypoint: c.entrypoint, priority: c.priority, queued: 0, picked: 0, held: 0 }
    if (c.status === 'queued') g.queued += c.n
    else if (c.status === 'picked') g.picked += c.n
    else if (c.status === 'failed') g.held += c.n
    groups.set(key, g)
  }
  const byEp = new Map<string, EntrypointStats>()
  for (const g of groups.values()) {
    const e = byEp.get(g.entrypoint) ?? {
      entrypoint: g.entrypoint,
      queued: 0,
      picked: 0,
      held: 0,
      priorities: [],
      concurrencyLimit: opts.jobInfo?.(g.entrypoint)?.concurrencyLimit ?? null,
      oldestQueuedAgeSeconds: null,
      nextScheduledAt: null,
      throughputPerSecond: 0,
      paused: false,
    }
    e.queued += g.queued
    e.picked += g.picked
    e.held += g.held
    if (g.queued + g.picked + g.held > 0) e.priorities.push(g.priority)
    byEp.set(g.entrypoint, e)
  }
  const oldest = await readOldest(
    db,
    [...byEp.values()].filter((e) => e.queued > 0).map((e) => e.entrypoint),
  )
  const throughput = await readThroughput(db)
  const workers = await readWorkers(db, opts.heartbeatTimeoutSeconds)
  const foreignTimeout = opts.foreignHeartbeatTimeoutSeconds ?? 0
  const stale = await readStalePicks(db, opts.heartbeatTimeoutSeconds, foreignTimeout)
  const suspect = await readSuspectPicks(db, opts.heartbeatTimeoutSeconds, foreignTimeout)
  const foreignWorkers = await readForeignWorkers(db, opts.heartbeatTimeoutSeconds)
  const schedules = await readSchedules(db, opts.timezone)
  const log = await logSize(db)
  const integrity = opts.integrity ? await opts.integrity(db) : { mismatch: 0, missing: 0 }
  const paused = await listPaused(db)
  for (const p of paused) {
    const e = byEp.get(p.entrypoint)
    if (e) e.paused = true
  }
  for (const [ep, tp] of Object.entries(throughput.byEntrypoint)) {
    const e = byEp.get(ep)
    if (e) e.throughputPerSecond = tp
  }
  for (const e of byEp.values()) {
    const o = oldest.get(e.entrypoint)
    e.oldestQueuedAgeSeconds = o ? o.age : null
    e.nextScheduledAt = o?.next?.toISOString() ?? null
    e.priorities.sort((a, b) => b - a)
  }
  const entrypoints = [...byEp.values()].sort((a, b) => a.entrypoint.localeCompare(b.entrypoint))
  const heldEntrypoints = entrypoints.filter((e) => e.held > 0).map((e) => e.entrypoint)
  const heldJobs = await readHeld(db, heldEntrypoints, opts.heldLimit ?? 20)
  const totals = entrypoints.reduce((t, e) => ({ queued: t.queued + e.queued, picked: t.picked + e.picked, held: t.held + e.held }), {
    queued: 0,
    picked: 0,
    held: 0,
  })
  const partial: Omit<QueueStats, 'health'> = {
    generatedAt: new Date().toISOString(),
    totals,
    entrypoints,
    groups: [...groups.values()].filter((g) => g.queued + g.picked + g.held > 0),
    throughput,
    held: { count: totals.held, threshold: opts.heldThreshold, jobs: heldJobs },
    workers: {
      timeoutSeconds: opts.heartbeatTimeoutSeconds,
      alive: workers.filter((w) => w.alive).length,
      total: workers.length,
      list: workers,
      foreignTimeoutSeconds: foreignTimeout,
      foreign: foreignWorkers,
    },
    stalePicks: stale,
    suspectPicks: suspect,
    schedules: schedules.map((s) => ({ ...s, enabled: opts.scheduleEnabled?.(s.entrypoint) ?? null })),
    paused,
    log,
    integrity,
  }
  const problems = checkHealth(partial, opts.includeForeignSchedules === true)
  return { ...partial, health: { healthy: problems.length === 0, problems } }
}
