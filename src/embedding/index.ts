export { type EmbeddingSettings, embedChunkTexts, embeddingsConfigured } from './embed-chunks.js'
export { EmbeddingsError, type EmbeddingsOptions, embeddingsEndpoint, embedTexts } from './embeddings-client.js'
