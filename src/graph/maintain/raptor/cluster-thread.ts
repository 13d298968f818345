/** RAPTOR's clustering thread: `count` vectors packed `dims` wide in, clusters of indexes out. */
import { clusterVectors } from './cluster-vectors.js'

export default function cluster(task: { packed: Float32Array; dims: number; maxSize: number }) {
  const { packed, dims, maxSize } = task
  const vectors = Array.from({ length: packed.length / dims }, (_, i) => packed.subarray(i * dims, (i + 1) * dims))
  return clusterVectors(vectors, maxSize)
}
