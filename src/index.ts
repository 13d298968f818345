/**
 * aizk's library API (docs/api.md): what an application imports to declare jobs, enqueue them
 * (in its own transaction too), wait for them, run a worker and read memory. It stays light:
 * aizk's own jobs (which declare themselves on import) are in `aizk/jobs` (index-jobs.ts), and the
 * graph's extractors, which load the NLP library, in `aizk/graph` (index-graph.ts). Anything else
 * is internal: the CLI's modules import it by path. api/aizk.api.md pins this list (`npm run api`).
 */
// Declaring jobs

export { type RunningWorker, startWorker, type WorkerRunOptions } from './app/run-worker.js'
export type { DatabaseTarget, PoolOptions } from './db/connect.js'
export { type Database, type OpenOptions, openDatabase } from './db/database.js'
export { type MigrateResult, type MigrationOptions, migrate } from './db/migrate.js'
export type { Queryable } from './db/queryable.js'
export { withStatementDeadline } from './db/statement-deadline.js'
// Errors
export {
  AizkError,
  AppLoginSettingsError,
  ConfigError,
  DatabaseError,
  DatabaseReadOnlyError,
  ExitCode,
  type ExitCodeValue,
  NoDatabaseError,
  OwnerAccessError,
  SchemaChangedError,
  TransactionEscapeError,
  UsageError,
} from './errors.js'
export { type AnyListener, type JobEventName, type WorkerEventMap, type WorkerEventName, WorkerEvents } from './events.js'
export type { NewDocument } from './graph/project/sql/document-sql.js'
export { type NewSessionItem, type WrittenDocument, writeDocument, writeSessionItem } from './graph/project/write-memory.js'
export { recall } from './graph/read/recall.js'
export type {
  RecalledChunk,
  RecalledClaim,
  RecalledCommunity,
  RecalledEntity,
  RecallFeatures,
  RecallItem,
  RecallKind,
  RecallOptions,
  RecallResult,
  RecallSource,
} from './graph/read/recall-types.js'
export { type IngestInput, type IngestResult, ingestOriginal } from './ingest/index.js'
export { bytesPayload, type JobClass, type JobContext, type JobKind, type PayloadFormat, QueueJob, type StatementDeadline } from './jobs/queue-job.js'
export { type DeclaredSettings, JobDeclarationError, JobRegistry, jobRegistry } from './jobs/registry.js'
export {
  type ScheduledContext,
  ScheduledJob,
  type ScheduledJobClass,
  type ScopedContext,
  ScopedScheduledJob,
  SystemScheduledJob,
} from './jobs/scheduled-job.js'
export { PermanentJobError } from './permanent-error.js'
// Enqueueing and waiting
export { type EnqueueItem, type EnqueueLogOption, type EnqueueOptions, enqueue, enqueueMany } from './queue/enqueue.js'
export type { CurrentStatus, FinalStatus } from './queue/job-status.js'
export { PayloadError } from './queue/payload.js'
export { JobPriority } from './queue/priority.js'
export { type JobOutcome, type WaitOptions, waitForJobs } from './queue/wait-for-jobs.js'
// Memory: scoped access, writing, reading
export { type GrowthGateOptions, type GrowthGateResult, runIfGrown, type ScopeSet, User } from './scope/index.js'
// Settings, the database, the worker
export { type NumberSettingKey, type ParseOptions, parseSettings, type SettingKey, type Settings, type SettingsSource } from './settings.js'
export { JobCanceledError } from './worker/executor.js'
export { Worker } from './worker/worker.js'
export type { WorkerOptions, WorkerService, WorkerSettings } from './worker/worker-options.js'
