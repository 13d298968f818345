/**
 * `aizk/jobs`: aizk's own jobs. Importing this entry declares every one of them in `jobRegistry`
 * (the worker binds what the registry holds); `aizk` alone declares none, so an application that
 * only enqueues loads neither their handlers nor the graph's NLP library.
 */
export {
  DoclingConversionJob,
  MarkdownReindexJob,
  UsageAccountingJob,
  ArtifactDispatchJob,
  ChunkDispatchJob,
  ChunkRecoveryJob,
  ChunkProjectionJob,
  ProfileProjectionJob,
  SessionPromoteJob,
  DecayJob,
  DedupJob,
  ArtifactIntegrityJob,
  CleanupJob,
  BackupJob,
  enqueuePending,
} from './jobs/inventory/index.js'
