/**
 * Hierarchical communities of a weighted entity graph: Louvain (graphology-communities-louvain)
 * on the entity graph gives level 0; each next level runs Louvain again on the graph whose nodes
 * are the previous level's communities and whose edge weights add up the edges between them
 * (as GraphRAG builds its hierarchy by re-clustering). Stops when a level no longer merges
 * anything, or at `maxLevels`. Pure CPU work, no database: seeded, so one graph gives one answer.
 */
import { createRequire } from 'node:module'
import { UndirectedGraph } from 'graphology'
import type louvainModule from 'graphology-communities-louvain'

// A CommonJS package whose types declare an ES default: load it as CommonJS, typed as declared.
const louvain = createRequire(import.meta.url)('graphology-communities-louvain') as typeof louvainModule.default
type Graph = UndirectedGraph

export interface WeightedEdge {
  a: string
  b: string
  weight: number
}

/** The same edges packed: entity `ids[i]` is node i; edge k joins a[k] and b[k] with weight[k]. */
export interface EdgeList {
  ids: string[]
  a: Int32Array
  b: Int32Array
  weight: Float64Array
}

export interface ClusterOptions {
  maxLevels: number
  resolution: number
  seed?: number
}

/** One level: each community's member node ids (entities at every level), largest first. */
export type Level = string[][]

/** A small deterministic generator (mulberry32), so Louvain's random walk is repeatable. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function graphOf(edges: Iterable<WeightedEdge>): Graph {
  const g = new UndirectedGraph({ multi: false, allowSelfLoops: false })
  for (const { a, b, weight } of edges) {
    if (a === b || !(weight > 0)) continue
    g.mergeNode(a)
    g.mergeNode(b)
    g.updateEdge(a, b, (attr) => ({ weight: ((attr.weight as number | undefined) ?? 0) + weight }))
  }
  return g
}

function partition(g: Graph, opts: ClusterOptions, level: number): Map<string, number> {
  const assignment = louvain(g, {
    getEdgeWeight: 'weight',
    resolution: opts.resolution,
    rng: seededRandom((opts.seed ?? 20240101) + level),
  })
  return new Map(Object.entries(assignment))
}

/**
 * Levels of communities over the entity ids of `edges`. Every level covers the same connected
 * entities; a community at level n+1 is a union of communities at level n.
 */
export function clusterLevels(edges: Iterable<WeightedEdge>, opts: ClusterOptions): Level[] {
  let graph = graphOf(edges)
  if (graph.order === 0) return []
  // Members of each current node: at level 0 a node is an entity.
  let members = new Map<string, string[]>(graph.nodes().map((n) => [n, [n]]))
  const levels: Level[] = []
  for (let level = 0; level < opts.maxLevels; level++) {
    const assignment = partition(graph, opts, level)
    const groups = new Map<number, string[]>()
    for (const [node, c] of assignment) groups.set(c, [...(groups.get(c) ?? []), node])
    if (level > 0 && groups.size === graph.order) break
    const nextMembers = new Map<string, string[]>()
    for (const [c, nodes] of groups)
      nextMembers.set(
        `c${c}`,
        nodes.flatMap((n) => members.get(n) ?? []),
      )
    levels.push([...nextMembers.values()].sort((x, y) => y.length - x.length || (x[0] < y[0] ? -1 : 1)))
    if (groups.size <= 1) break
    const coarse: WeightedEdge[] = []
    graph.forEachEdge((_e, attr, s, t) => {
      const cs = `c${assignment.get(s)}`
      const ct = `c${assignment.get(t)}`
      if (cs !== ct) coarse.push({ a: cs, b: ct, weight: attr.weight as number })
    })
    if (coarse.length === 0) break
    members = nextMembers
    graph = graphOf(coarse)
    // Communities with no edge to another drop out of the coarse graph: carry them up as they are.
    for (const id of nextMembers.keys()) if (!graph.hasNode(id)) graph.addNode(id)
  }
  return levels
}

/**
 * An edge list's edges with node numbers for ids ("n0", "n1", ...), for clustering in a thread.
 * Not bare digits: Louvain answers with an object, and an object lists integer-like keys in
 * numeric order rather than the graph's, which would reorder each community's members.
 */
export function* numberedEdges(edges: Omit<EdgeList, 'ids'>): Generator<WeightedEdge> {
  for (let k = 0; k < edges.a.length; k++) yield { a: `n${edges.a[k]}`, b: `n${edges.b[k]}`, weight: edges.weight[k] }
}

/** Levels clustered over node numbers, back to entity ids, ordered as clusterLevels orders them. */
export function levelsOfIds(numbered: Level[], ids: readonly string[]): Level[] {
  return numbered.map((level) =>
    level.map((members) => members.map((n) => ids[Number(n.slice(1))])).sort((x, y) => y.length - x.length || (x[0] < y[0] ? -1 : 1)),
  )
}
