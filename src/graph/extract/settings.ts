/** The chat model's settings: the OpenAI-compatible endpoint extraction and summaries use when set. */
import { z } from 'zod'
import { intSetting, MAX_TIMER_SECONDS, numberSetting, settingsGroup, urlSetting } from '../../settings-types.js'

export const llmSettings = settingsGroup({
  name: 'llm',
  title: 'Chat model',
  settings: {
    llmUrl: {
      schema: urlSetting(['http', 'https']),
      description: 'OpenAI-compatible chat endpoint (base URL, `/chat/completions` is appended); set, extraction and profile summaries use the model.',
      firstRun: true,
    },
    llmModel: { schema: z.string().default('gpt-4o-mini'), description: 'Chat model name sent to the endpoint.' },
    llmApiKey: { schema: z.string().optional(), description: 'Bearer token for the chat endpoint.', secret: true },
    llmTimeoutSeconds: { schema: numberSetting(120, { min: 1, max: MAX_TIMER_SECONDS }), description: 'Time limit of one chat request.' },
    llmMaxAttempts: {
      schema: intSetting(3, { min: 1, max: 10 }),
      description: 'Answers asked for per chunk before a malformed extraction is held with the model text in the error.',
    },
    llmConcurrency: {
      schema: intSetting(4, { min: 1, max: 64 }),
      description: 'Chat requests one process has in flight at once, whatever asks (extraction, profiles, community reports, summaries); more wait their turn.',
    },
  },
})
