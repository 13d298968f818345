/** docling-serve's settings: where binary formats (PDF, DOCX, PPTX) are converted. */
import { z } from 'zod'
import { MAX_TIMER_SECONDS, numberSetting, settingsGroup, urlSetting } from '../settings-types.js'

export const convertSettings = settingsGroup({
  name: 'convert',
  title: 'Conversion (docling-serve)',
  settings: {
    doclingUrl: {
      schema: urlSetting(['http', 'https']),
      description: 'docling-serve base URL, for PDF, DOCX, PPTX and other binary formats.',
      firstRun: true,
    },
    doclingApiKey: { schema: z.string().optional(), description: 'API key sent to docling-serve (`X-Api-Key`).', secret: true },
    doclingTimeoutSeconds: { schema: numberSetting(300, { min: 1, max: MAX_TIMER_SECONDS }), description: 'Timeout of one docling-serve conversion.' },
  },
})
