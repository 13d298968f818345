/**
 * The memory tool: recall, reading only under the scope set `aizk mcp --scope` names. The set is
 * the server's, not an argument: a client cannot widen it (docs/mcp.md).
 */
import { z } from 'zod'
import { embedTexts } from '../embedding/embeddings-client.js'
import { checkQuestion, recall } from '../graph/read/recall.js'
import type { McpContext } from './context.js'
import { tool } from './register.js'

export function memoryTools(ctx: McpContext & { readScopes: string[] }) {
  const { pool, settings, readScopes } = ctx
  return [
    tool({
      name: 'recall',
      description: `Answer a question from the memory graph of the scope set {${readScopes.join(',')}} (and its subsets; never a wider set): ranked items (claims with weight and source document, entities with description, community summaries, matching text), each saying which rankings found it. Full text, trigram names, one or two graph hops, vectors when configured, fused by reciprocal rank.`,
      input: {
        question: z.string().trim().min(1).describe('The question, in plain words.'),
        limit: z.number().int().min(1).max(100).default(10).describe('Items to return, best first (1-100, default 10).'),
        asOf: z
          .string()
          .optional()
          .describe(
            'When the facts were true: a year (1997), a month (2001-04), a day (2010-06-01) or an ISO 8601 moment. Claims dated wholly before or after it are left out.',
          ),
        knownAt: z.string().datetime({ offset: true }).optional().describe('ISO 8601 moment: answer as the graph stood then (claims recorded later left out).'),
      },
      run: async (a) => {
        checkQuestion(a.question)
        const queryVector = settings.embeddingsUrl
          ? (
              await embedTexts([a.question], { url: settings.embeddingsUrl, model: settings.embeddingsModel, apiKey: settings.embeddingsApiKey, batchSize: 1 })
            )[0]
          : undefined
        return recall(
          pool,
          { readScopes, query: a.question, limit: a.limit, asOf: a.asOf, knownAt: a.knownAt ? new Date(a.knownAt) : undefined, queryVector },
          settings,
        )
      },
    }),
  ]
}
