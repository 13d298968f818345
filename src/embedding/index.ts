export { type EmbeddingSettings, embedChunkTexts, embeddingsConfigured } from './embed-chunks.js'
export { EmbeddingsError, embeddingsEndpoint, embedTexts, type EmbeddingsOptions } from './embeddings-client.js'
