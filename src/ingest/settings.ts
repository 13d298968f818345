/** What `aizk ingest` accepts. */
import { intSetting, settingsGroup } from '../settings-types.js'

export const ingestSettings = settingsGroup({
  name: 'ingest',
  title: 'Ingest',
  settings: {
    ingestMaxBytes: {
      // One PostgreSQL value holds at most 1 GiB.
      schema: intSetting(268_435_456, { min: 1, max: 1_073_741_823 }),
      description:
        'Largest file `aizk ingest` reads (bytes, up to 1,073,741,823); a larger one, or anything but a regular file, is refused with exit 2 before it is read.',
    },
  },
})
