/**
 * `aizk/graph`: the memory graph's extraction and its whole-graph read. The built-in extractor
 * loads the NLP library (compromise) on import, which is why this is an entry of its own and not
 * part of `aizk` (writing and recalling memory are there). api/aizk-graph.api.md pins this list.
 */

export type { ClaimModel, LearnedLayer } from './graph/extract/learned/claim-model.js'
export type { EntityModel } from './graph/extract/learned/entity-model.js'
export type { SoftmaxModel } from './graph/extract/learned/logistic.js'
export type { LlmExtractorSettings } from './graph/extract/llm-extractor.js'
export {
  BuiltinExtractor,
  type ChunkRef,
  closeExtractionPool,
  type Extraction,
  type Extractor,
  extractBuiltin,
  type GraphView,
  LlmExtractor,
  MalformedAnswerError,
  type ProjectionOutcome,
  projectChunk,
  readGraph,
} from './graph/index.js'
export type { GraphClaim, GraphEntity, GraphPage, GraphProfile } from './graph/read/read-graph.js'
