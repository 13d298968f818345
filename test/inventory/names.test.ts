import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { CHUNK_PROJECTION_ENTRYPOINT } from '../../src/ingest/projection.js'
import {
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
} from '../../src/jobs/inventory/index.js'
import { concurrencyLimitOf } from '../../src/jobs/queue-job.js'
import { jobRegistry } from '../../src/jobs/registry.js'
import { parseSettings } from '../../src/settings.js'

// The names stored in the database are a contract (docs/job-inventory.md): a rename fails here.
describe('inventory names', () => {
  it('pins the on-write jobs', () => {
    const rows = [ChunkProjectionJob, DoclingConversionJob, MarkdownReindexJob, UsageAccountingJob].map((j) => [
      j.entrypoint,
      j.priority,
      j.concurrencyLimit,
      j.kind,
      j.maxAttempts,
    ])
    assert.deepEqual(rows, [
      ['aizk_build_graph_chunk', 50, 4, 'on-write', 5],
      ['aizk_convert_artifact', 75, 4, 'on-write', 5],
      ['aizk_reindex_artifact', 75, 4, 'on-write', 5],
      ['aizk_usage_event', 0, 0, 'on-write', 5],
    ])
    assert.equal(CHUNK_PROJECTION_ENTRYPOINT, 'aizk_build_graph_chunk')
  })

  it('pins the scheduled jobs: names, entrypoints, settings, crons, priority 10, concurrency 1', () => {
    const jobs = [
      ArtifactDispatchJob,
      ChunkDispatchJob,
      ProfileProjectionJob,
      SessionPromoteJob,
      DecayJob,
      DedupJob,
      CommunitiesJob,
      RaptorJob,
      ProfileRefreshJob,
      InsightJob,
      ChunkRecoveryJob,
      ArtifactIntegrityJob,
      CleanupJob,
      BackupJob,
    ]
    const rows = jobs.map((j) => [
      j.jobName,
      j.kind,
      j.entrypoint,
      j.cronEntrypoint,
      j.settingKeys.cron,
      j.settingKeys.enabled,
      j.defaultCron,
      j.defaultEnabled,
      j.priority,
      j.concurrencyLimit,
    ])
    assert.deepEqual(rows, [
      [
        'artifact_dispatch',
        'scoped',
        'aizk_task_artifact_dispatch',
        'aizk_cron_artifact_dispatch',
        'artifactDispatchCron',
        'artifactDispatchEnabled',
        '* * * * *',
        true,
        10,
        1,
      ],
      [
        'chunk_dispatch',
        'scoped',
        'aizk_task_chunk_dispatch',
        'aizk_cron_chunk_dispatch',
        'chunkDispatchCron',
        'chunkDispatchEnabled',
        '* * * * *',
        true,
        10,
        1,
      ],
      [
        'profile_projection',
        'scoped',
        'aizk_task_profile_projection',
        'aizk_cron_profile_projection',
        'profileProjectionCron',
        'profileProjectionEnabled',
        '* * * * *',
        true,
        10,
        1,
      ],
      [
        'session_promote',
        'scoped',
        'aizk_task_session_promote',
        'aizk_cron_session_promote',
        'sessionPromoteCron',
        'sessionPromoteEnabled',
        '*/15 * * * *',
        true,
        10,
        1,
      ],
      ['decay', 'scoped', 'aizk_task_decay', 'aizk_cron_decay', 'decayCron', 'decayEnabled', '0 3 * * *', true, 10, 1],
      ['dedup', 'scoped', 'aizk_task_dedup', 'aizk_cron_dedup', 'dedupCron', 'dedupEnabled', '30 3 * * *', true, 10, 1],
      ['communities', 'scoped', 'aizk_task_communities', 'aizk_cron_communities', 'communitiesCron', 'communitiesEnabled', '0 4 * * 0', true, 10, 1],
      ['raptor', 'scoped', 'aizk_task_raptor', 'aizk_cron_raptor', 'raptorCron', 'raptorEnabled', 'off', false, 10, 1],
      [
        'profile_refresh',
        'scoped',
        'aizk_task_profile_refresh',
        'aizk_cron_profile_refresh',
        'profileRefreshCron',
        'profileRefreshEnabled',
        '0 5 * * 0',
        true,
        10,
        1,
      ],
      ['insight', 'scoped', 'aizk_task_insight', 'aizk_cron_insight', 'insightCron', 'insightEnabled', '0 7 * * 0', true, 10, 1],
      [
        'chunk_recovery',
        'system',
        'aizk_task_chunk_recovery',
        'aizk_cron_chunk_recovery',
        'chunkRecoveryCron',
        'chunkRecoveryEnabled',
        '* * * * *',
        true,
        10,
        1,
      ],
      [
        'artifact_integrity',
        'system',
        'aizk_task_artifact_integrity',
        'aizk_cron_artifact_integrity',
        'artifactIntegrityCron',
        'artifactIntegrityEnabled',
        '0 6 * * *',
        true,
        10,
        1,
      ],
      ['cleanup', 'system', 'aizk_task_cleanup', 'aizk_cron_cleanup', 'cleanupCron', 'cleanupEnabled', '0 1 * * *', true, 10, 1],
      ['backup', 'system', 'aizk_task_backup', 'aizk_cron_backup', 'backupCron', 'backupEnabled', '0 2 * * *', false, 10, 1],
    ])
  })

  it('registers every one of them on import, with their settings', () => {
    for (const ep of [
      'aizk_convert_artifact',
      'aizk_reindex_artifact',
      'aizk_usage_event',
      'aizk_task_artifact_dispatch',
      'aizk_task_chunk_dispatch',
      'aizk_build_graph_chunk',
      'aizk_task_profile_projection',
      'aizk_task_session_promote',
      'aizk_task_decay',
      'aizk_task_dedup',
      'aizk_task_communities',
      'aizk_task_raptor',
      'aizk_task_profile_refresh',
      'aizk_task_insight',
      'aizk_task_chunk_recovery',
      'aizk_task_artifact_integrity',
      'aizk_task_cleanup',
      'aizk_task_backup',
    ]) {
      assert.ok(jobRegistry.get(ep), `${ep} is not registered`)
    }
    assert.equal(jobRegistry.get('aizk_build_graph_chunk'), ChunkProjectionJob)
    const settings = parseSettings({ AIZK_BACKUP_ENABLED: 'true', AIZK_DOCLING_CONCURRENCY: '2' }, { registry: jobRegistry })
    assert.equal(settings.decayHalfLifeDays, 90)
    assert.equal(settings.graphBuildConcurrency, 4)
    assert.equal(BackupJob.enabled(settings), true)
    assert.equal(BackupJob.enabled(parseSettings({}, { registry: jobRegistry })), false)
    assert.equal(settings.chunkDispatchBatch, 512)
    assert.equal(settings.chunkRecoveryBatch, 512)
    assert.equal(settings.chunkRecoveryMaxCycles, 3)
  })

  it('reads the conversion limits from doclingConcurrency under the settings the worker runs with', () => {
    const settings = parseSettings({ AIZK_DOCLING_CONCURRENCY: '7', AIZK_GRAPH_BUILD_CONCURRENCY: '3' })
    assert.equal(concurrencyLimitOf(DoclingConversionJob, settings), 7)
    assert.equal(concurrencyLimitOf(MarkdownReindexJob, settings), 7)
    assert.equal(concurrencyLimitOf(ChunkProjectionJob, settings), 3, 'the projection limit is graphBuildConcurrency')
    assert.equal(concurrencyLimitOf(DoclingConversionJob, parseSettings({})), 4)
  })
})
