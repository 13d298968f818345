/**
 * The read tools: PgQueuer 1.3.2's eleven (queue_size, queue_table_info, queue_stats,
 * throughput_summary, failed_jobs, queue_log, schedules, stale_jobs, active_workers, queue_age,
 * schema_info) answered from aizk's tables through the same core reads as `aizk status` and
 * `aizk jobs show`, plus one job's story, the health verdict, the roster and the memory backlog.
 * Nothing here reads a memory row: the roster and the backlog are counts, read as the status
 * and roster commands read them.
 */
import { z } from 'zod'
import { countIntegrityFailures } from '../content/integrity.js'
import { schemaState } from '../db/migrate.js'
import { NotFoundError } from '../errors.js'
import { statsJobHooks } from '../operator/job-inventory.js'
import { jobStoryJson } from '../operator/job-story-view.js'
import { jobId } from '../operator/numbers.js'
import { readCounts, readThroughput } from '../queue/counts.js'
import { browseJobs } from '../queue/job-browse.js'
import { readJobStory } from '../queue/job-story.js'
import { readRecentFailures, readRecentLog } from '../queue/log-read.js'
import { readQueueTables } from '../queue/schema-info.js'
import { queueStats, readOldest } from '../queue/stats.js'
import { readHeld } from '../queue/stats-held.js'
import { readSchedules } from '../queue/stats-schedules.js'
import { readForeignWorkers, readStalePicks, readWorkers } from '../queue/stats-workers.js'
import { readThroughputBuckets, readThroughputTotals, THROUGHPUT_KEEP_SECONDS } from '../queue/throughput-history.js'
import { memoryBacklog } from '../scope/memory-backlog.js'
import { rosterCounts } from '../scope/roster-counts.js'
import type { McpContext } from './context.js'
import { durationSeconds } from './duration-arg.js'
import { idsWithinSet, payloadScopes, WITHHELD, withinSet } from './payload-scope.js'
import { tool } from './register.js'

const limit = (dflt: number, max = 1000) => z.number().int().min(1).max(max).default(dflt).describe(`Most rows returned (1-${max}, default ${dflt}).`)
const period = z
  .string()
  .optional()
  .describe("Look-back window: ISO 8601 ('PT5M', 'PT1H', 'P1D') or '5m', '2h'. Omitted: all the history kept (one hour of per-second throughput).")

/** aizk keeps a held job as status `failed`; the state word operators use. */
const stateOf = (status: string) => (status === 'failed' ? 'held' : status)

/** `readScopes`: the set `aizk mcp --scope` names; with it, other sets' payloads are withheld. */
export function readTools(ctx: McpContext, readScopes?: readonly string[]) {
  const { pool, settings } = ctx
  return [
    tool({
      name: 'queue_size',
      description:
        "Live queue depth by entrypoint, priority and status: start here. status is as stored (queued, picked, failed); state says the same in aizk's words (failed = held: the job used its attempts and waits for `aizk requeue`). Exact counts from trigger-kept tables, cheap on any queue size. Empty: nothing queued, running or held.",
      input: {},
      run: async () =>
        (await readCounts(pool)).map((c) => ({ entrypoint: c.entrypoint, priority: c.priority, status: c.status, state: stateOf(c.status), count: c.n })),
    }),
    tool({
      name: 'queue_table_info',
      description:
        'Browse the queue rows (queued, picked, held) in pick order: priority highest first, then id. Each row: id, priority, status, entrypoint, queueManagerId (the worker holding a picked job), created, updated, heartbeat, executeAfter, attempts, dedupeKey, payload as text (first 500 characters) with payloadBytes, headers. Finished jobs have left the table: see queue_log, failed_jobs or job_story.',
      input: { limit: limit(100), offset: z.number().int().min(0).default(0).describe('Rows to skip first, for paging (default 0).') },
      run: async (a) => {
        const rows = await browseJobs(pool, { limit: a.limit, offset: a.offset })
        if (!readScopes) return rows
        const shown = await idsWithinSet(
          pool,
          rows.map((r) => r.id),
          readScopes,
        )
        return rows.map((r) => (shown.has(r.id) ? r : { ...r, payload: null, dedupeKey: null, withheld: WITHHELD }))
      },
    }),
    tool({
      name: 'queue_stats',
      description:
        "Finished jobs per second, entrypoint and status (successful, failed = held, exception, canceled, deleted), newest second first: the throughput time series. From aizk_throughput, which the log's insert trigger keeps and compaction trims to the last hour.",
      input: { period, limit: limit(50) },
      run: async (a) => readThroughputBuckets(pool, { periodSeconds: durationSeconds(a.period, 'period'), limit: a.limit }),
    }),
    tool({
      name: 'throughput_summary',
      description:
        'Totals of finished jobs per entrypoint and status over a window (at most the hour aizk keeps), plus the rate now: perSecondNow (last 10 s), lastMinute, perMinute (last 15 minutes, oldest first), failedLastMinute. Compare successful with failed/exception for a failure ratio.',
      input: { period },
      run: async (a) => {
        const seconds = durationSeconds(a.period, 'period')
        return {
          periodSeconds: seconds === undefined ? THROUGHPUT_KEEP_SECONDS : Math.min(seconds, THROUGHPUT_KEEP_SECONDS),
          keptSeconds: THROUGHPUT_KEEP_SECONDS,
          totals: await readThroughputTotals(pool, seconds),
          now: await readThroughput(pool),
        }
      },
    }),
    tool({
      name: 'failed_jobs',
      description:
        "Failures, newest first. held: the jobs held now (status failed, row kept: attempts used up or a permanent error), newest per entrypoint with cycles and last error, and their count; recentFailures: the newest failure log rows, aizk's holds (`failed`) and PgQueuer workers' exceptions (`exception`), each with its traceback record (exception_type, exception_message, traceback, additional_context). Fix the cause, then `aizk requeue`.",
      input: { limit: limit(50) },
      run: async (a) => {
        const counts = await readCounts(pool)
        const heldBy = new Map<string, number>()
        for (const c of counts) if (c.status === 'failed') heldBy.set(c.entrypoint, (heldBy.get(c.entrypoint) ?? 0) + c.n)
        return {
          held: { count: [...heldBy.values()].reduce((a, b) => a + b, 0), jobs: await readHeld(pool, [...heldBy.keys()], a.limit) },
          recentFailures: await readRecentFailures(pool, a.limit),
        }
      },
    }),
    tool({
      name: 'queue_log',
      description:
        "pgqueuer_log, newest first: one row per job that left the queue (successful, failed = held, exception, canceled, deleted) and, with log parity on, queued and picked rows. Columns: id, created, jobId, status, priority, entrypoint, traceback. Trimmed after AIZK_CLEANUP_LOG_RETENTION_DAYS. For failures prefer failed_jobs; for one job's history, job_story.",
      input: { limit: limit(100) },
      run: (a) => readRecentLog(pool, a.limit),
    }),
    tool({
      name: 'schedules',
      description:
        "The cron schedules in pgqueuer_schedules: entrypoint, expression, status, nextRun, lastRun, periodSeconds, sinceFireSeconds, overdue (no fire in twice its period), foreign (not aizk's own aizk_cron_* tick: a PgQueuer scheduler's), enabled (aizk's AIZK_<NAME>_ENABLED; null for foreign ones). Overdue and enabled: no worker runs the scheduler.",
      input: {},
      run: async () => {
        const { scheduleEnabled } = statsJobHooks(settings)
        return (await readSchedules(pool, settings.timezone)).map((s) => ({ ...s, enabled: scheduleEnabled?.(s.entrypoint) ?? null }))
      },
    }),
    tool({
      name: 'stale_jobs',
      description:
        "Picked jobs whose heartbeat is older than the threshold, oldest first, with their count (capped): their worker is probably gone. Without a threshold aizk's own rule applies, as its workers apply it: AIZK_HEARTBEAT_TIMEOUT_SECONDS for aizk workers, AIZK_FOREIGN_HEARTBEAT_TIMEOUT_SECONDS for PgQueuer ones (0 = never stale). A worker picks stale jobs again by itself; cross-check queueManagerId with active_workers.",
      input: {
        threshold: z.string().optional().describe("Heartbeat age that makes a pick stale: ISO 8601 ('PT5M') or '5m'. Omitted: aizk's heartbeat timeouts."),
        limit: limit(50),
      },
      run: async (a) => {
        const t = durationSeconds(a.threshold, 'threshold')
        return readStalePicks(pool, t ?? settings.heartbeatTimeoutSeconds, t ?? settings.foreignHeartbeatTimeoutSeconds, a.limit)
      },
    }),
    tool({
      name: 'active_workers',
      description:
        "The workers: aizk's registered ones (host, pid, version, entrypoints, started, heartbeat age, alive within AIZK_HEARTBEAT_TIMEOUT_SECONDS, jobs held picked) and foreign queue managers (PgQueuer workers, seen only through the jobs they hold picked, with their freshest heartbeat). No alive worker while queue_size shows queued jobs: nothing is running them.",
      input: {},
      run: async () => ({
        heartbeatTimeoutSeconds: settings.heartbeatTimeoutSeconds,
        workers: await readWorkers(pool, settings.heartbeatTimeoutSeconds),
        foreign: await readForeignWorkers(pool, settings.heartbeatTimeoutSeconds),
      }),
    }),
    tool({
      name: 'queue_age',
      description:
        'The backlog per entrypoint with queued jobs, worst first: queuedCount, oldestReadyAgeSeconds (how long the oldest job that is due has waited since it became due: the key figure; 0 when none is due yet) and nextScheduledAt (the earliest job not yet due). One index probe per entrypoint. Empty: nothing waits.',
      input: {},
      run: async () => {
        const queued = new Map<string, number>()
        for (const c of await readCounts(pool)) if (c.status === 'queued') queued.set(c.entrypoint, (queued.get(c.entrypoint) ?? 0) + c.n)
        const oldest = await readOldest(pool, [...queued.keys()])
        return [...queued]
          .map(([entrypoint, n]) => ({
            entrypoint,
            queuedCount: n,
            oldestReadyAgeSeconds: oldest.get(entrypoint)?.age ?? null,
            nextScheduledAt: oldest.get(entrypoint)?.next?.toISOString() ?? null,
          }))
          .sort((a, b) => (b.oldestReadyAgeSeconds ?? -1) - (a.oldestReadyAgeSeconds ?? -1))
      },
    }),
    tool({
      name: 'schema_info',
      description:
        "The queue's tables (PgQueuer's four and aizk's own): exists, persistence (LOGGED or UNLOGGED: unlogged tables are emptied by a crash), estimatedRows (catalogue estimate), totalBytes; and the aizk schema version installed against the one this aizk needs (behind: run `aizk install`).",
      input: {},
      run: async () => {
        const client = await pool.connect()
        try {
          const state = await schemaState(client, { appRole: settings.appRole })
          return {
            schema: {
              installed: state.installed,
              current: state.current,
              latest: state.latest,
              pending: state.pending.map((m) => m.version),
              pendingDefinitions: state.pendingDefinitions.map((d) => d.name),
            },
            tables: await readQueueTables(client),
          }
        } finally {
          client.release()
        }
      },
    }),
    tool({
      name: 'job_story',
      description:
        "One job's story, as `aizk jobs show ID --json` gives it: state (queued, picked, held, finished), its row, payload (first 2,000 characters), headers, last error, the worker holding it, and every log row with tracebacks. Finished jobs are known only while their log rows are kept.",
      input: { id: z.string().describe('The job id (a whole number, as the other tools print it).') },
      run: async (a) => {
        const id = jobId(a.id, 'job id')
        const story = await readJobStory(pool, id, settings.heartbeatTimeoutSeconds)
        if (!story) throw new NotFoundError(`no job ${id}: not in the queue and no log row`, 'finished jobs are kept only in pgqueuer_log until it is pruned')
        const json = jobStoryJson(story, false)
        if (!readScopes || withinSet(payloadScopes(story.row?.payload ?? null), readScopes)) return json
        return { ...json, job: json.job ? { ...json.job, dedupeKey: null } : null, payload: null, withheld: WITHHELD }
      },
    }),
    tool({
      name: 'queue_health',
      description:
        'The verdict of `aizk status --check`: healthy, and each problem (stale picks, held jobs over AIZK_STATUS_HELD_THRESHOLD, an enabled aizk cron that has not fired in twice its period, artifact originals that failed re-verification), with the totals queued, picked and held.',
      input: {},
      run: async () => {
        const stats = await queueStats(pool, {
          heartbeatTimeoutSeconds: settings.heartbeatTimeoutSeconds,
          foreignHeartbeatTimeoutSeconds: settings.foreignHeartbeatTimeoutSeconds,
          heldThreshold: settings.statusHeldThreshold,
          timezone: settings.timezone,
          ...statsJobHooks(settings),
          integrity: countIntegrityFailures,
        })
        return { ...stats.health, totals: stats.totals, generatedAt: stats.generatedAt }
      },
    }),
    tool({
      name: 'scope_roster',
      description:
        'The roster, as `aizk roster --json` gives it: every scope set that holds memory, with counts of its documents, session items, artifacts, chunks waiting for projection, entities, claims, communities and insights. Counts only, each read inside the set through row security; no memory content.',
      input: { contains: z.array(z.string().uuid()).optional().describe('Only scope sets containing all of these scope UUIDs.') },
      run: (a) => rosterCounts(pool, settings, { contains: a.contains }),
    }),
    tool({
      name: 'memory_backlog',
      description:
        "The memory graph's backlog as `aizk status` shows it: chunks waiting for projection, dirty entity profiles, and each growth-gated pass's last decision (ran or skipped, for which scope set, at how many claims). Counts and scope arrays only.",
      input: {},
      run: () => memoryBacklog(pool, settings),
    }),
  ]
}
