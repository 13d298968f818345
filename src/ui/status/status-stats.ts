/** What the status views draw: the queue's stats with the memory graph's backlog beside them. */
import type { QueueStats } from '../../queue/stats.js'
import type { MemoryBacklog } from '../../scope/memory-backlog.js'

export type StatusStats = QueueStats<MemoryBacklog>
