/** The built-in jobs' settings: global concurrency limits, batch sizes and retention of the inventory's passes. */
import { intSetting, MAX_DAYS, numberSetting, settingsGroup } from '../../settings-types.js'

export const inventorySettings = settingsGroup({
  name: 'jobs',
  title: 'Built-in jobs',
  settings: {
    doclingConcurrency: { schema: intSetting(4, { min: 0 }), description: 'Global limit of conversion and reindex jobs.' },
    graphBuildConcurrency: { schema: intSetting(4, { min: 0 }), description: 'Global limit of chunk projection jobs.' },
    chunkDispatchBatch: { schema: intSetting(512, { min: 1 }), description: 'Chunks ChunkDispatchJob enqueues per tick and scope set.' },
    chunkRecoveryBatch: { schema: intSetting(512, { min: 1 }), description: 'Held chunk jobs ChunkRecoveryJob requeues per tick.' },
    chunkRecoveryMaxCycles: { schema: intSetting(3, { min: 0 }), description: 'Cycles after which ChunkRecoveryJob leaves a chunk job held.' },
    cleanupLogRetentionDays: {
      schema: numberSetting(7, { min: 0, max: MAX_DAYS }),
      description: 'Queue history (`pgqueuer_log`) older than this is pruned.',
    },
    cleanupLogDeleteBatch: { schema: intSetting(10000, { min: 1 }), description: 'Log rows deleted per batch.' },
    integrityBatch: { schema: intSetting(100, { min: 1 }), description: 'Originals ArtifactIntegrityJob re-verifies per run.' },
    integrityMinAgeDays: { schema: numberSetting(30, { min: 0, max: MAX_DAYS }), description: 'Only originals older than this are re-verified.' },
  },
})
