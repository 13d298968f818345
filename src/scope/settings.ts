/** Who scoped work runs as: the app role and the system user (docs/security.md). */
import { z } from 'zod'
import { settingsGroup, uuidSetting } from '../settings-types.js'

/** The system user's id when AIZK_SYSTEM_USER_ID is unset (documented in docs/settings.md). */
export const DEFAULT_SYSTEM_USER_ID = '00000000-0000-4000-a000-000000000001'

export const scopeSettings = settingsGroup({
  name: 'scope',
  title: 'Scopes and roles',
  settings: {
    appRole: {
      schema: z
        .string()
        .default('aizk_app')
        .pipe(z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'expected a lower-case SQL role name')),
      description: 'Role every scoped transaction runs as; owns nothing, cannot bypass row security.',
    },
    systemUserId: {
      schema: uuidSetting(DEFAULT_SYSTEM_USER_ID),
      description: 'The system user; its scope is the fallback for a pass given no scopes.',
    },
  },
})
