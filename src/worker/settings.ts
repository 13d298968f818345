/**
 * The worker's settings: how much it picks and runs at once, how it heartbeats, polls, retries and
 * stops (docs/job-lifecycle.md), and the sizes derived from them.
 */
import { z } from 'zod'
import { boolSetting, intSetting, listSetting, MAX_TIMER_SECONDS, numberSetting, settingsGroup } from '../settings-types.js'

/** How long a busy worker lets completions gather by default (AIZK_COMPLETION_FLUSH_MS; worker/outcomes.ts). */
export const DEFAULT_COMPLETION_FLUSH_MS = 15

/** Heartbeats a worker must send within the timeout, so one late heartbeat never looks like death. */
export const HEARTBEATS_PER_TIMEOUT = 3

export const workerSettings = settingsGroup({
  name: 'worker',
  title: 'Worker',
  settings: {
    queueBatchSize: {
      schema: intSetting(64, { min: 1, max: 10000 }),
      description: 'Jobs a worker picks per round trip while the queue is quiet; picks double while they come back full, up to 8 x this (at most 512).',
      firstRun: true,
    },
    queueConcurrentTasks: { schema: intSetting(undefined, { min: 1 }), description: 'Jobs one worker runs at once (default 4 x batch size).', firstRun: true },
    queueLocalSize: {
      schema: intSetting(undefined, { min: 0, max: 100000 }),
      description:
        'Picked jobs a worker may hold waiting for a free handler slot, its local queue (default twice the largest pick and at least 4 x batch size: 1,024 at batch 64; 0 = pick only what can start at once, picks never grow). Heartbeated like running jobs, released on shutdown.',
    },
    queuePicksInFlight: {
      schema: intSetting(1, { min: 1, max: 2 }),
      description:
        'Picks one worker may have on the server at once (1 or 2). With 2, while picks come back full a second pick is sent while the first is on its way: a lone worker drained 0-14 % faster in the bench, at 25-44 % more CPU per job on a 2-core machine shared with the server (docs/job-lifecycle.md#picks-in-flight). Replicas overlap their picks anyway.',
    },
    workerJobPoolSize: {
      schema: intSetting(undefined, { min: 1, max: 10000 }),
      description:
        "Connections of the pool the worker's job handlers run their SQL on (`ctx.pool`). Default 8 + concurrency / 16, at most 64. Jobs that spend their time in SQL want about their concurrency (docs/deployment.md#the-handlers-pool); behind a transaction pooler, the server connections come from its pool anyway.",
    },
    queueVacuumRows: {
      schema: intSetting(100000, { min: 0 }),
      description:
        'Row versions the queue table may gather (rows updated or deleted since its last VACUUM, by anyone) before a worker runs `VACUUM (SKIP_LOCKED) pgqueuer` itself: every pick and completion leaves one, and the pick reads past them until a VACUUM (docs/deployment.md#the-queue-table-and-vacuum). 100,000 is about 50,000 jobs; 0 = leave it to autovacuum. Needs a login that owns the table or the database.',
    },
    workerEntrypoints: { schema: listSetting(), description: 'Only these entrypoints (comma-separated); empty = every job with a handler.', firstRun: true },
    workerNoScheduler: {
      schema: boolSetting(false),
      description: 'Run no cron scheduler in this worker (otherwise it fires the schedules of the entrypoints it runs).',
    },
    workerJobModules: {
      schema: listSetting(),
      description: 'Extra job modules to load (comma-separated paths or packages); their jobs bind with nothing registered by hand.',
      firstRun: true,
    },
    workerHealthPort: {
      schema: intSetting(undefined, { min: 0, max: 65535 }),
      description: 'Serve `/livez`, `/readyz` and `/metrics` on this port.',
      firstRun: true,
    },
    workerOutput: {
      schema: z.enum(['auto', 'view', 'json']).default('auto'),
      description: '`auto` (live view on a terminal, JSON lines elsewhere), `view` or `json`.',
    },
    workerLogJobs: { schema: boolSetting(true), description: 'One JSON line per job event; `false` keeps batch, worker and schedule lines only.' },
    heartbeatIntervalSeconds: {
      schema: numberSetting(5, { min: 0.05, max: MAX_TIMER_SECONDS }),
      description: 'How often in-flight jobs and the worker row heartbeat; at most a third of the heartbeat timeout (checked together, exit 3).',
    },
    heartbeatTimeoutSeconds: {
      schema: numberSetting(30, { min: 0.1, max: MAX_TIMER_SECONDS }),
      description: 'A job picked by an aizk worker whose heartbeat is older belongs to a dead worker and is picked again.',
    },
    shutdownTimeoutSeconds: {
      schema: numberSetting(25, { min: 0, max: MAX_TIMER_SECONDS }),
      description:
        'On SIGTERM, how long in-flight jobs may finish before they are released; the last writes get at most 5 s (or the database deadline, if shorter) more, then the process ends whatever its connections do.',
    },
    listenCheckSeconds: {
      schema: numberSetting(10, { min: 0.1, max: 3600 }),
      description:
        "How often the worker's LISTEN connection proves itself with a round trip; one that fails its deadline is replaced, the poll covering the gap.",
    },
    completionFlushMs: {
      schema: intSetting(DEFAULT_COMPLETION_FLUSH_MS, { min: 0, max: 10000 }),
      description:
        'How long a busy worker lets finished jobs gather (or until 512 have) before it writes them in one statement, beside its picks; an idle worker writes them at once. A worker killed inside the window runs those jobs again.',
    },
    workerStartupWaitSeconds: {
      schema: numberSetting(60, { min: 0, max: MAX_TIMER_SECONDS }),
      description:
        'How long a starting worker keeps retrying (with backoff) while PostgreSQL refuses connections or is still starting; `/readyz` answers 503 meanwhile. 0 = give up at once (exit 4).',
    },
    pollIntervalSeconds: {
      schema: numberSetting(1, { min: 0.01, max: MAX_TIMER_SECONDS }),
      description: 'Fallback poll interval (jittered) when no NOTIFY arrives.',
    },
    jobTimeoutSeconds: {
      schema: numberSetting(1800, { min: 0, max: MAX_TIMER_SECONDS }),
      description: 'A handler running longer is failed (retried or held) and its slot freed; 0 = no limit.',
    },
  },
  check: (s, nameOf) => heartbeatProblems(s, { interval: nameOf('heartbeatIntervalSeconds'), timeout: nameOf('heartbeatTimeoutSeconds') }),
})

/**
 * The heartbeat pair, checked together: a timeout that passes before the worker's own next
 * heartbeat makes every worker re-pick the jobs it is still running. `names` says how each
 * value was given (a variable, or a worker flag).
 */
export function heartbeatProblems(
  s: { heartbeatIntervalSeconds: number; heartbeatTimeoutSeconds: number },
  names = { interval: 'AIZK_HEARTBEAT_INTERVAL_SECONDS', timeout: 'AIZK_HEARTBEAT_TIMEOUT_SECONDS' },
): string[] {
  if (s.heartbeatIntervalSeconds * HEARTBEATS_PER_TIMEOUT <= s.heartbeatTimeoutSeconds) return []
  return [
    `${names.interval} (${s.heartbeatIntervalSeconds}) and ${names.timeout} (${s.heartbeatTimeoutSeconds}): ` +
      `the timeout must be at least ${HEARTBEATS_PER_TIMEOUT} heartbeat intervals, or workers re-pick jobs they are still running`,
  ]
}

/** A worker's picks grow to at most this many jobs unless the batch size is larger. */
const GROWN_PICK_CAP = 512

/**
 * The largest pick a worker grows to: while picks come back full, each asks for twice the last,
 * up to 8 batches and at most GROWN_PICK_CAP (a larger batch size is its own ceiling).
 * docs/job-lifecycle.md#the-size-of-a-pick says why.
 */
export function pickCeiling(batchSize: number): number {
  return Math.max(batchSize, Math.min(batchSize * 8, GROWN_PICK_CAP))
}

/**
 * The local queue's size unless set: room for two of the largest picks (one waits in reserve
 * while the next is on its way) and at least four batches, whatever the concurrency
 * (docs/job-lifecycle.md#the-local-queue). It holds at most about a second of work
 * (worker/pick-loop.ts, LOCAL_QUEUE_HORIZON_MS).
 */
export function defaultLocalQueueSize(batchSize: number): number {
  return Math.max(batchSize * 4, 2 * pickCeiling(batchSize))
}
