/** The embeddings endpoint's settings: unset, chunks are stored without vectors. */
import { z } from 'zod'
import { intSetting, settingsGroup, urlSetting } from '../settings-types.js'

export const embeddingSettings = settingsGroup({
  name: 'embedding',
  title: 'Embeddings',
  settings: {
    embeddingsUrl: {
      schema: urlSetting(['http', 'https']),
      description: 'OpenAI-compatible embeddings endpoint base URL; unset, chunks are stored without vectors.',
      firstRun: true,
    },
    embeddingsModel: { schema: z.string().default('text-embedding-3-small'), description: 'Embedding model name.' },
    embeddingsApiKey: { schema: z.string().optional(), description: 'Bearer token for the embeddings endpoint.', secret: true },
    embeddingsBatch: { schema: intSetting(64, { min: 1, max: 2048 }), description: 'Chunks embedded per request.' },
  },
})
