/**
 * `aizk/graph`: the memory graph's extraction and its whole-graph read. The built-in extractor
 * loads the NLP library (compromise) on import, which is why this is an entry of its own and not
 * part of `aizk` (writing and recalling memory are there). api/aizk-graph.api.md pins this list.
 */
export {
  readGraph,
  projectChunk,
  extractBuiltin,
  BuiltinExtractor,
  LlmExtractor,
  MalformedAnswerError,
  closeExtractionPool,
  type ChunkRef,
  type ProjectionOutcome,
  type Extraction,
  type Extractor,
  type GraphView,
} from './graph/index.js'
export type { GraphEntity, GraphClaim, GraphProfile, GraphPage } from './graph/read/read-graph.js'
export type { LlmExtractorSettings } from './graph/extract/llm-extractor.js'
