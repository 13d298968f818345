/**
 * The passes' CPU work on a piscina thread gives what it gives on the loop: Louvain's levels from
 * packed edges match clusterLevels over the entity ids, RAPTOR's clusters match clusterVectors,
 * and an aborted pass gets no answer from its thread.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import { withThread } from '../../src/graph/cpu-thread.js'
import { clusterLevels, type EdgeList, type WeightedEdge } from '../../src/graph/maintain/communities/cluster-levels.js'
import { clusterOffThread } from '../../src/graph/maintain/communities/cluster-pool.js'
import { clusterVectors, clusterVectorsOn, raptorThread } from '../../src/graph/maintain/raptor/cluster-vectors.js'

/** Six planted groups of 12 entities, dense inside, a few light edges between neighbours. */
function plantedEdges(): WeightedEdge[] {
  const ids = Array.from({ length: 72 }, () => randomUUID())
  const edges: WeightedEdge[] = []
  for (let g = 0; g < 6; g++) {
    for (let i = 0; i < 12; i++) for (let j = i + 1; j < 12; j += 2) edges.push({ a: ids[g * 12 + i], b: ids[g * 12 + j], weight: 1 + ((i + j) % 3) })
    edges.push({ a: ids[g * 12], b: ids[((g + 1) % 6) * 12 + 5], weight: 0.3 })
  }
  return edges
}

function pack(edges: WeightedEdge[]): EdgeList {
  const ids: string[] = []
  const at = new Map<string, number>()
  const n = (id: string) => {
    if (!at.has(id)) at.set(id, ids.push(id) - 1)
    return at.get(id) as number
  }
  return {
    ids,
    a: Int32Array.from(edges, (e) => n(e.a)),
    b: Int32Array.from(edges, (e) => n(e.b)),
    weight: Float64Array.from(edges, (e) => e.weight),
  }
}

describe('graph passes on a thread', () => {
  it('clusters packed edges into the same levels as on the loop', async () => {
    const edges = plantedEdges()
    const opts = { maxLevels: 4, resolution: 1 }
    const onLoop = clusterLevels(edges, opts)
    const onThread = await clusterOffThread(pack(edges), opts)
    assert.equal(onLoop[0].length, 6, JSON.stringify(onLoop.map((l) => l.length)))
    assert.deepEqual(onThread, onLoop)
    assert.deepEqual(await clusterOffThread(pack([]), opts), [])
  })

  it('clusters RAPTOR vectors as on the loop, several levels on one thread', async () => {
    const vectors = Array.from({ length: 300 }, (_, i) => Array.from({ length: 16 }, (_, d) => (d === i % 16 ? 4 : 0) + Math.sin(i * (d + 1))))
    const onLoop = clusterVectors(vectors, 8)
    const [first, again] = await withThread(raptorThread(), async (run) => [
      await clusterVectorsOn(run, vectors, 8),
      await clusterVectorsOn(run, vectors.slice(0, 40), 8),
    ])
    assert.deepEqual(first, onLoop)
    assert.deepEqual(again, clusterVectors(vectors.slice(0, 40), 8))
    assert.ok(first.every((c) => c.length <= 8) && first.flat().length === 300)
  })

  it('rejects when the pass is aborted', async () => {
    const controller = new AbortController()
    controller.abort(new Error('worker shutting down'))
    await assert.rejects(clusterOffThread(pack(plantedEdges()), { maxLevels: 4, resolution: 1 }, controller.signal))
  })
})
