/** Louvain on a thread of its own (src/graph/cpu-thread.ts): only the packed edges cross, the entity ids stay here. */
import { runOnThread, threadModule } from '../../cpu-thread.js'
import { type ClusterOptions, type EdgeList, type Level, levelsOfIds } from './cluster-levels.js'

export async function clusterOffThread(edges: EdgeList, opts: ClusterOptions, signal?: AbortSignal): Promise<Level[]> {
  if (edges.a.length === 0) return []
  const { ids, ...packed } = edges
  const numbered = await runOnThread<Level[]>(
    threadModule(import.meta.url, 'cluster-thread'),
    { edges: packed, opts },
    [packed.a.buffer, packed.b.buffer, packed.weight.buffer],
    signal,
  )
  return levelsOfIds(numbered, ids)
}
