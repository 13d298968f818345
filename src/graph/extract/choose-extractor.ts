/** The extractor the settings ask for: the chat model when AIZK_LLM_URL is set, else built in. */
import type { Settings } from '../../settings.js'
import { BuiltinExtractor, defaultExtractThreads } from './extract-pool.js'
import type { Extractor } from './extraction.js'
import { LlmExtractor } from './llm-extractor.js'

let builtin: BuiltinExtractor | undefined

export function extractorFor(settings: Settings): Extractor {
  if (settings.llmUrl) return new LlmExtractor(settings)
  builtin ??= new BuiltinExtractor(settings.graphExtractThreads ?? defaultExtractThreads())
  return builtin
}
