/** The scheduler's one setting: the time zone crons are read in. */
import { settingsGroup, timezoneSetting } from '../settings-types.js'

export const schedulerSettings = settingsGroup({
  name: 'scheduler',
  title: 'Scheduler',
  settings: {
    timezone: { schema: timezoneSetting(), description: 'Time zone crons are read in (IANA name).', firstRun: true },
  },
})
