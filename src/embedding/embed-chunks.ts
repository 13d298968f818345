/** Vectors for chunk texts when an embeddings endpoint is configured; null for each otherwise. */
import { embedTexts } from './embeddings-client.js'

export interface EmbeddingSettings {
  embeddingsUrl?: string
  embeddingsModel: string
  embeddingsApiKey?: string
  embeddingsBatch: number
}

export function embeddingsConfigured(settings: Partial<EmbeddingSettings>): boolean {
  return Boolean(settings.embeddingsUrl)
}

export async function embedChunkTexts(texts: string[], settings: EmbeddingSettings, signal?: AbortSignal): Promise<(number[] | null)[]> {
  if (!settings.embeddingsUrl || texts.length === 0) return texts.map(() => null)
  return embedTexts(texts, {
    url: settings.embeddingsUrl,
    model: settings.embeddingsModel,
    apiKey: settings.embeddingsApiKey,
    batchSize: settings.embeddingsBatch,
    signal,
  })
}
