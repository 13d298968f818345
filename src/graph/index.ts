export { extractBuiltin } from './extract/builtin-extractor.js'
export { extractorFor } from './extract/choose-extractor.js'
export { BuiltinExtractor, closeExtractionPool } from './extract/extract-pool.js'
export { cleanExtraction, type Extraction, type Extractor, extractionSchema } from './extract/extraction.js'
export { LlmExtractor, MalformedAnswerError } from './extract/llm-extractor.js'
export { normalizeName } from './extract/normalize.js'
export { type DecayOptions, decayClaims } from './maintain/decay.js'
export { extractiveSummary, refreshDirtyProfiles } from './maintain/profiles.js'
export { type ChunkRef, type ProjectionOutcome, projectChunk } from './project/project-chunk.js'
export { type PromotionResult, promoteSessions } from './project/promote-sessions.js'
export { type NewSessionItem, type WrittenDocument, writeDocument, writeSessionItem } from './project/write-memory.js'
export { type GraphView, readGraph } from './read/read-graph.js'
export { recall } from './read/recall.js'
export type {
  RecalledChunk,
  RecalledClaim,
  RecalledCommunity,
  RecalledEntity,
  RecallFeatures,
  RecallItem,
  RecallOptions,
  RecallResult,
  RecallSource,
} from './read/recall-types.js'
export { type DedupResult, dedupEntities } from './resolve/dedup.js'
