/** A status snapshot for the dashboard's tests: real shapes, fixed values. */
import type { QueueStats } from '../../../src/queue/stats.js'

export const now = Date.parse('2026-11-29T12:00:00Z')

export function statusStats(over: Partial<QueueStats> = {}): QueueStats {
  return {
    generatedAt: '2026-11-29T12:00:00.000Z',
    totals: { queued: 1500, picked: 4, held: 2 },
    entrypoints: [
      { entrypoint: 'aizk_build_graph_chunk', queued: 1500, picked: 4, held: 0, priorities: [50], concurrencyLimit: 4, oldestQueuedAgeSeconds: 75, nextScheduledAt: null, throughputPerSecond: 120, paused: false },
      { entrypoint: 'aizk_convert_artifact', queued: 0, picked: 0, held: 2, priorities: [75], concurrencyLimit: 4, oldestQueuedAgeSeconds: null, nextScheduledAt: null, throughputPerSecond: 0, paused: false },
    ],
    groups: [],
    throughput: { perSecondNow: 120, lastMinute: 7200, perMinute: [0, 0, 10, 50, 100, 7200], byEntrypoint: {}, failedLastMinute: 0 },
    held: {
      count: 2,
      threshold: 0,
      jobs: [
        { id: '901', entrypoint: 'aizk_convert_artifact', priority: 75, attempts: 5, cycles: 2, heldAt: '2026-11-29T11:58:00.000Z', lastError: 'DoclingError: cannot open PDF' },
        { id: '900', entrypoint: 'aizk_convert_artifact', priority: 75, attempts: 5, cycles: 0, heldAt: '2026-11-29T11:50:00.000Z', lastError: null },
      ],
    },
    workers: {
      timeoutSeconds: 30,
      alive: 1,
      total: 2,
      list: [
        { queueManagerId: 'aaaaaaaa-1111-4111-8111-111111111111', host: 'node-1', pid: 101, version: '0.1.0', entrypoints: [], started: '', heartbeat: '', heartbeatAgeSeconds: 2, alive: true, picked: 4, stuckCalls: 0, stuckSince: null },
        { queueManagerId: 'bbbbbbbb-2222-4222-8222-222222222222', host: 'node-2', pid: 202, version: '0.1.0', entrypoints: [], started: '', heartbeat: '', heartbeatAgeSeconds: 400, alive: false, picked: 0, stuckCalls: 0, stuckSince: null },
      ],
      foreignTimeoutSeconds: 600,
      foreign: [],
    },
    stalePicks: { count: 0, jobs: [] },
    suspectPicks: { count: 0, jobs: [] },
    integrity: { mismatch: 0, missing: 0 },
    schedules: [
      { entrypoint: 'aizk_cron_chunk_dispatch', expression: '* * * * *', status: 'queued', nextRun: '2026-11-29T12:00:30.000Z', lastRun: '2026-11-29T11:59:30.000Z', periodSeconds: 60, sinceFireSeconds: 30, overdue: false, foreign: false, enabled: true },
      { entrypoint: 'aizk_cron_backup', expression: '0 2 * * *', status: 'queued', nextRun: '2026-11-30T02:00:00.000Z', lastRun: null, periodSeconds: 86400, sinceFireSeconds: 999999, overdue: true, foreign: false, enabled: false },
    ],
    paused: [],
    log: { rowsEstimate: 1234567, bytes: 300 * 1024 * 1024, unlogged: false },
    health: { healthy: false, problems: [{ code: 'held_over_threshold', message: '2 held job(s), over the threshold of 0' }] },
    ...over,
  }
}

