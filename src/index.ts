/**
 * aizk's library API (docs/api.md): what an application imports to declare jobs, enqueue them
 * (in its own transaction too), wait for them, run a worker and read memory. It stays light:
 * aizk's own jobs (which declare themselves on import) are in `aizk/jobs` (index-jobs.ts), and the
 * graph's extractors, which load the NLP library, in `aizk/graph` (index-graph.ts). Anything else
 * is internal: the CLI's modules import it by path. api/aizk.api.md pins this list (`npm run api`).
 */
// Declaring jobs
export { QueueJob, bytesPayload, type JobContext, type JobClass, type JobKind, type PayloadFormat, type StatementDeadline } from './jobs/queue-job.js'
export { ScheduledJob, ScopedScheduledJob, SystemScheduledJob, type ScheduledJobClass, type ScheduledContext, type ScopedContext } from './jobs/scheduled-job.js'
export { JobRegistry, jobRegistry, JobDeclarationError, type DeclaredSettings } from './jobs/registry.js'
export { JobPriority } from './queue/priority.js'
export { withStatementDeadline } from './db/statement-deadline.js'
export { runIfGrown, type GrowthGateOptions, type GrowthGateResult } from './scope/index.js'
export { PermanentJobError } from './permanent-error.js'
export { JobCanceledError } from './worker/executor.js'
// Enqueueing and waiting
export { enqueue, enqueueMany, type EnqueueItem, type EnqueueOptions, type EnqueueLogOption } from './queue/enqueue.js'
export type { Queryable } from './db/queryable.js'
export { PayloadError } from './queue/payload.js'
export { waitForJobs, type WaitOptions, type JobOutcome } from './queue/wait-for-jobs.js'
export type { FinalStatus, CurrentStatus } from './queue/job-status.js'
// Settings, the database, the worker
export { parseSettings, type ParseOptions, type Settings, type SettingsSource } from './settings.js'
export { openDatabase, type Database, type OpenOptions } from './db/database.js'
export type { DatabaseTarget, PoolOptions } from './db/connect.js'
export { migrate, type MigrationOptions, type MigrateResult } from './db/migrate.js'
export { Worker } from './worker/worker.js'
export type { WorkerOptions, WorkerService, WorkerSettings } from './worker/worker-options.js'
export { WorkerEvents, type WorkerEventMap, type WorkerEventName, type JobEventName, type AnyListener } from './events.js'
export { startWorker, type RunningWorker, type WorkerRunOptions } from './app/run-worker.js'
// Memory: scoped access, writing, reading
export { User, type ScopeSet } from './scope/index.js'
export { ingestOriginal, type IngestInput, type IngestResult } from './ingest/index.js'
export { writeDocument, writeSessionItem, type NewSessionItem, type WrittenDocument } from './graph/project/write-memory.js'
export type { NewDocument } from './graph/project/sql/document-sql.js'
export { recall } from './graph/read/recall.js'
export type { RecallOptions, RecallResult, RecallItem, RecallKind, RecalledClaim, RecalledEntity, RecalledCommunity, RecalledChunk, RecallSource } from './graph/read/recall-types.js'
// Errors
export {
  ExitCode,
  type ExitCodeValue,
  AizkError,
  UsageError,
  ConfigError,
  NoDatabaseError,
  DatabaseError,
  DatabaseReadOnlyError,
  SchemaChangedError,
  OwnerAccessError,
  TransactionEscapeError,
  AppLoginSettingsError,
} from './errors.js'
