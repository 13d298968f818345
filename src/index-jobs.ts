/**
 * `aizk/jobs`: aizk's own jobs, every one of them (docs/job-inventory.md). Importing this entry
 * declares them all in `jobRegistry` (the worker binds what the registry holds); `aizk` alone
 * declares none, so an application that only enqueues loads neither their handlers nor the
 * graph's NLP library. api/aizk-jobs.api.md pins this list (`npm run api`).
 */
export {
  ArtifactDispatchJob,
  ArtifactIntegrityJob,
  BackupJob,
  ChunkDispatchJob,
  ChunkProjectionJob,
  ChunkRecoveryJob,
  CleanupJob,
  CommunitiesJob,
  DecayJob,
  DedupJob,
  DoclingConversionJob,
  InsightJob,
  MarkdownReindexJob,
  ProfileProjectionJob,
  ProfileRefreshJob,
  RaptorJob,
  SessionPromoteJob,
  UsageAccountingJob,
} from './jobs/inventory/index.js'
