/**
 * `aizk/graph`: the memory graph's extraction and reading. The built-in extractor loads the NLP
 * library (compromise) on import, which is why this is an entry of its own and not part of `aizk`.
 */
export {
  writeDocument,
  writeSessionItem,
  readGraph,
  projectChunk,
  extractBuiltin,
  BuiltinExtractor,
  LlmExtractor,
  MalformedAnswerError,
  closeExtractionPool,
  normalizeName,
  type Extraction,
  type Extractor,
  type GraphView,
  type NewSessionItem,
  type WrittenDocument,
} from './graph/index.js'
