/** How documents are cut into chunks. */
import { intSetting, settingsGroup } from '../settings-types.js'

export const chunkingSettings = settingsGroup({
  name: 'chunking',
  title: 'Chunking',
  settings: {
    chunkMaxChars: { schema: intSetting(2000, { min: 100 }), description: 'Size bound of a chunk (code blocks and tables are kept whole).' },
    chunkOverlapChars: { schema: intSetting(200, { min: 0 }), description: 'Overlap carried from one chunk into the next.' },
  },
})
