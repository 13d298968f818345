/** Where originals live. */
import { z } from 'zod'
import { folderSetting, settingsGroup } from '../settings-types.js'

export const contentSettings = settingsGroup({
  name: 'content',
  title: 'Content store',
  settings: {
    contentStore: {
      schema: z.enum(['postgres', 'folder']).default('postgres'),
      description: 'Where originals live: `postgres` (shared by every host) or `folder`.',
    },
    contentStoreDir: { schema: folderSetting(), description: 'Folder of the content store when it is `folder` (a shared volume).' },
  },
})
