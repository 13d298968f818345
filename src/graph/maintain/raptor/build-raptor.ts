/**
 * RaptorJob's body, after RAPTOR (Sarthi et al., 2024): cluster the set's chunk vectors,
 * summarise each cluster, embed the summaries, and repeat on the summaries until a level is
 * small (at most `raptorClusterSize` nodes) or MAX_LEVELS is reached. Level 1 nodes keep
 * their chunk ids, higher nodes their child node ids; every node keeps its vector. The new tree
 * replaces the set's old one in the pass's one transaction.
 */
import { randomUUID } from 'node:crypto'
import type { Queryable } from '../../../db/queryable.js'
import { embedTexts } from '../../../embedding/embeddings-client.js'
import { PermanentJobError } from '../../../permanent-error.js'
import type { Settings } from '../../../settings.js'
import { type RunTask, withThread } from '../../cpu-thread.js'
import { mapLimited } from '../../map-limited.js'
import { embeddedChunks, type NewRaptorNode, replaceRaptorNodes } from '../sql/raptor-sql.js'
import { clusterVectorsOn, raptorThread } from './cluster-vectors.js'
import { type SummarySettings, summarizeCluster } from './summarize.js'

export type RaptorSettings = SummarySettings &
  Pick<Settings, 'raptorClusterSize' | 'embeddingsUrl' | 'embeddingsModel' | 'embeddingsApiKey' | 'embeddingsBatch'>

/** Summary levels built above the chunks: each level is a cluster size smaller, four reach a handful of nodes. */
const MAX_LEVELS = 4

export interface RaptorBuild {
  chunks: number
  levels: number[]
  nodes: number
}

interface LayerItem {
  id: string
  text: string
  embedding: number[]
}

/** Run `fn` over items with at most `limit` at once, results in order. */
export async function buildRaptor(db: Queryable, scopes: readonly string[], settings: RaptorSettings, signal?: AbortSignal): Promise<RaptorBuild> {
  const url = settings.embeddingsUrl
  if (!url) throw new PermanentJobError('RAPTOR needs an embeddings endpoint: set AIZK_EMBEDDINGS_URL')
  const chunks = await embeddedChunks(db, scopes)
  const { nodes, perLevel } = chunks.length
    ? await withThread(raptorThread(), (run) => buildLevels(run, chunks, settings, url, signal), signal)
    : { nodes: [], perLevel: [] }
  await replaceRaptorNodes(db, scopes, nodes)
  return { chunks: chunks.length, levels: perLevel, nodes: nodes.length }
}

/** The tree's levels, each clustered on the pass's thread (seconds of CPU at 10,000 vectors). */
async function buildLevels(run: RunTask, chunks: LayerItem[], settings: RaptorSettings, url: string, signal?: AbortSignal) {
  const nodes: NewRaptorNode[] = []
  const perLevel: number[] = []
  let layer: LayerItem[] = chunks
  for (let level = 1; layer.length > 0 && level <= MAX_LEVELS; level++) {
    signal?.throwIfAborted()
    const clusters = await clusterVectorsOn(
      run,
      layer.map((item) => item.embedding),
      settings.raptorClusterSize,
    )
    const summaries = await mapLimited(clusters, 4, (members) =>
      summarizeCluster(
        settings,
        members.map((i) => layer[i].text),
        signal,
      ),
    )
    const vectors = await embedTexts(summaries, {
      url,
      model: settings.embeddingsModel,
      apiKey: settings.embeddingsApiKey,
      batchSize: settings.embeddingsBatch,
      signal,
    })
    const next: LayerItem[] = clusters.map((members, i) => {
      const children = members.map((m) => layer[m].id)
      const node: NewRaptorNode = {
        id: randomUUID(),
        level,
        summary: summaries[i],
        embedding: vectors[i],
        childChunkIds: level === 1 ? children : [],
        childNodeIds: level === 1 ? [] : children,
      }
      nodes.push(node)
      return { id: node.id, text: node.summary, embedding: node.embedding }
    })
    perLevel.push(next.length)
    if (next.length <= settings.raptorClusterSize) break
    layer = next
  }
  return { nodes, perLevel }
}
