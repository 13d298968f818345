/** aizk's own job inventory: importing this module declares every built-in job. */
import { jobRegistry } from '../registry.js'
import * as artifactDispatch from './artifact-dispatch-job.js'
import * as artifactIntegrity from './artifact-integrity-job.js'
import * as backup from './backup-job.js'
import * as chunkDispatch from './chunk-dispatch-job.js'
import * as chunkProjection from './chunk-projection-job.js'
import * as chunkRecovery from './chunk-recovery-job.js'
import * as cleanup from './cleanup-job.js'
import * as communities from './communities-job.js'
import * as decay from './decay-job.js'
import * as dedup from './dedup-job.js'
import * as doclingConversion from './docling-conversion-job.js'
import * as insight from './insight-job.js'
import * as markdownReindex from './markdown-reindex-job.js'
import * as profileProjection from './profile-projection-job.js'
import * as profileRefresh from './profile-refresh-job.js'
import * as raptor from './raptor-job.js'
import * as sessionPromote from './session-promote-job.js'
import * as usageAccounting from './usage-accounting-job.js'

export const inventoryModules = [
  doclingConversion,
  markdownReindex,
  chunkProjection,
  usageAccounting,
  artifactDispatch,
  chunkDispatch,
  profileProjection,
  sessionPromote,
  decay,
  dedup,
  communities,
  raptor,
  profileRefresh,
  insight,
  chunkRecovery,
  artifactIntegrity,
  cleanup,
  backup,
]

for (const mod of inventoryModules) jobRegistry.registerModule(mod as Record<string, unknown>)

export { ArtifactDispatchJob } from './artifact-dispatch-job.js'
export { ArtifactIntegrityJob } from './artifact-integrity-job.js'
export { BackupJob } from './backup-job.js'
export { ChunkDispatchJob, enqueuePending } from './chunk-dispatch-job.js'
export { ChunkProjectionJob } from './chunk-projection-job.js'
export { ChunkRecoveryJob } from './chunk-recovery-job.js'
export { CleanupJob } from './cleanup-job.js'
export { CommunitiesJob } from './communities-job.js'
export { DecayJob } from './decay-job.js'
export { DedupJob } from './dedup-job.js'
export { DoclingConversionJob } from './docling-conversion-job.js'
export { InsightJob } from './insight-job.js'
export { MarkdownReindexJob } from './markdown-reindex-job.js'
export { ProfileProjectionJob } from './profile-projection-job.js'
export { ProfileRefreshJob } from './profile-refresh-job.js'
export { RaptorJob } from './raptor-job.js'
export { SessionPromoteJob } from './session-promote-job.js'
export { UsageAccountingJob } from './usage-accounting-job.js'
