/** `aizk dashboard`'s settings: its port, refresh, and who may open it beyond loopback. */
import { z } from 'zod'
import { intSetting, MAX_TIMER_SECONDS, numberSetting, settingsGroup } from '../settings-types.js'

export const dashboardSettings = settingsGroup({
  name: 'dashboard',
  title: 'Dashboard',
  settings: {
    dashboardToken: {
      schema: z.string().min(16, 'expected at least 16 characters').optional(),
      description: '`aizk dashboard` bearer token (at least 16 characters); with it or basic auth the dashboard may bind beyond 127.0.0.1.',
      secret: true,
    },
    dashboardUser: {
      schema: z.string().min(1).optional(),
      description: '`aizk dashboard` basic-auth user (with AIZK_DASHBOARD_PASSWORD).',
    },
    dashboardPassword: {
      schema: z.string().min(8, 'expected at least 8 characters').optional(),
      description: '`aizk dashboard` basic-auth password (at least 8 characters, with AIZK_DASHBOARD_USER).',
      secret: true,
    },
    dashboardPort: { schema: intSetting(8474, { min: 0, max: 65535 }), description: '`aizk dashboard` port when --port is not given (0: any free port).' },
    dashboardIntervalSeconds: {
      schema: numberSetting(2, { min: 0.2, max: MAX_TIMER_SECONDS }),
      description: 'How often the dashboard reads the database for its live updates, only while a browser is connected.',
    },
  },
  check: (s, nameOf) =>
    (s.dashboardUser === undefined) !== (s.dashboardPassword === undefined)
      ? [`${nameOf('dashboardUser')} and ${nameOf('dashboardPassword')}: set both for basic auth, or neither`]
      : [],
})
