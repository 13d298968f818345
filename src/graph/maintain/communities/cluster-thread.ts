/** The clustering thread's entry: a packed edge list in, its levels over node numbers out. */
import { type ClusterOptions, clusterLevels, type EdgeList, numberedEdges } from './cluster-levels.js'

export default function cluster(task: { edges: Omit<EdgeList, 'ids'>; opts: ClusterOptions }) {
  return clusterLevels(numberedEdges(task.edges), task.opts)
}
