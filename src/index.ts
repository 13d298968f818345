/**
 * aizk's library API: what the application imports to enqueue follow-up work in the same
 * transaction as its write, and to declare jobs. It stays light: aizk's own jobs (which declare
 * themselves on import) are in `aizk/jobs` (index-jobs.ts), and the graph's extractors, which
 * load the NLP library, in `aizk/graph` (index-graph.ts).
 */
export { JobPriority } from './queue/priority.js'
export { QueueJob, type JobContext, type JobKind, type JobClass, type PayloadFormat, type StatementDeadline, bytesPayload, validatePayload } from './jobs/queue-job.js'
export { withStatementDeadline } from './db/statement-deadline.js'
export { JobRegistry, jobRegistry, JobDeclarationError, type DeclaredSettings } from './jobs/registry.js'
export { enqueue, enqueueMany, type EnqueueItem, type EnqueueOptions } from './queue/enqueue.js'
export { PayloadError } from './queue/payload.js'
export { parseSettings, unknownSettingVariables, type ParseOptions, type Settings, type SettingsSource } from './settings.js'
export { openDatabase, type Database, type OpenOptions } from './db/database.js'
export { createPool, closePool, type PoolOptions } from './db/connect.js'
export { DatabasePool } from './db/database-pool.js'
export { checkAppLogin } from './db/app-login.js'
export { migrate } from './db/migrate.js'
export * from './errors.js'
export { User, scopeRoster, runIfGrown, normalizeScopes, scopeKey, type ScopeSet } from './scope/index.js'
export {
  ScheduledJob,
  ScopedScheduledJob,
  SystemScheduledJob,
  isScheduledJobClass,
  deriveJobName,
  type ScheduledJobClass,
  type ScheduledContext,
  type ScopedContext,
} from './jobs/scheduled-job.js'
export { Scheduler, fanOut, type FireResult, type UpcomingFire } from './scheduler/index.js'
export { ingestOriginal, convertArtifact, reindexArtifact, enqueueChunkProjections, CHUNK_PROJECTION_ENTRYPOINT, type IngestInput, type IngestResult } from './ingest/index.js'
export { chunkMarkdown, type Chunk, type ChunkOptions } from './chunking/index.js'
export { contentIdOf, countIntegrity, type IntegrityCounts } from './content/index.js'
export { PermanentJobError, isPermanentError } from './permanent-error.js'
export { ConverterMissingError } from './convert/errors.js'
export { recordUsage, readUsageDaily, type UsageEvent } from './usage/record-usage.js'
export { Worker } from './worker/worker.js'
export type { WorkerOptions, WorkerService, WorkerSettings } from './worker/worker-options.js'
export { WorkerEvents, type WorkerEventMap, type WorkerEventName, type JobEventName } from './events.js'
export { startWorker, type RunningWorker, type WorkerRunOptions } from './app/run-worker.js'
export { pickJobs, planPick, type PickedJob } from './queue/pick.js'
export { completeJobs } from './queue/complete.js'
export { retryJobs, holdJobs, releaseJobs, type TracebackRecord } from './queue/retry.js'
export { requeueFailed, countHeld, type RequeueOptions, type RequeuedJob } from './queue/requeue.js'
export { discardHeld, cancelQueued, type RemoveOptions, type RemovedJob } from './queue/remove-jobs.js'
export { requestCancel, type CancelRequestOptions, type CancelRequestedJob } from './queue/cancel-request.js'
export { pauseEntrypoint, resumeEntrypoint, listPaused, type PausedEntrypoint } from './queue/pause.js'
export { readJobStory, type JobStory } from './queue/job-story.js'
export { waitForJobs, type WaitOptions, type JobOutcome } from './queue/wait-for-jobs.js'
export { readJobStatuses, type FinalStatus, type CurrentStatus } from './queue/job-status.js'
export { JobCanceledError } from './worker/executor.js'
export { pruneLog, countPrunable, reclaimLog, logSize, type PruneOptions, type PruneProgress, type PruneResult, type LogSize } from './queue/prune.js'
export { readDurability, setDurability, type DurabilityChange, type DurabilityLevel, type DurabilityState, type SettableLevel } from './queue/durability.js'
export { queueStats, type QueueStats, type StatsOptions, type EntrypointStats, type HealthProblem } from './queue/stats.js'
export { compactCounts, compactThroughput, readCounts, readThroughput } from './queue/counts.js'
export { rosterCounts, type RosterEntry } from './scope/roster-counts.js'
export { writeDocument, writeSessionItem, type NewSessionItem, type WrittenDocument } from './graph/project/write-memory.js'
export { recall } from './graph/read/recall.js'
export type { RecallOptions, RecallResult, RecallItem, RecalledClaim, RecalledEntity, RecalledCommunity, RecalledChunk, RecallSource } from './graph/read/recall-types.js'
