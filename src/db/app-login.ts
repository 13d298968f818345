/**
 * Scoped work's own login (AIZK_APP_DATABASE_URL). A transaction on the owner login that only
 * `SET LOCAL ROLE`s to the app role can `RESET ROLE` back to the owner; on a login that is a
 * member of the app role and cannot become the owner, there is nowhere to go back to. The
 * owner's pool carries that login's pool (DatabasePool.appLogin), so callers keep passing one
 * pool and the scope module (src/scope/user.ts) decides which connection a scoped transaction
 * runs on.
 */
import type pg from 'pg'
import { ConfigError, OwnerAccessError } from '../errors.js'
import { DatabasePool } from './database-pool.js'
import { APP_LOGIN_FACTS } from './sql/app-login.js'

/**
 * The login scoped transactions asked of `pool` run on: its app login, or none (the owner login
 * under SET LOCAL ROLE). When the settings name an app login, a pool that does not carry one
 * (a plain pg.Pool, or one opened without it) is refused rather than quietly run on the owner.
 */
export function appLoginFor(pool: pg.Pool, settings: { appDatabaseUrl?: string }): pg.Pool | undefined {
  const app = pool instanceof DatabasePool ? pool.appLogin : undefined
  if (!app && settings.appDatabaseUrl) {
    throw new OwnerAccessError(
      'scoped work was handed a pool without the app login AIZK_APP_DATABASE_URL names, so it would run on the owner login',
      'pass the pool from openDatabase (or createPool(url, { appLogin })), or unset AIZK_APP_DATABASE_URL (docs/security.md)',
    )
  }
  return app
}

interface LoginFacts {
  login: string
  owner: string | null
  reaches_owner: boolean | null
  in_app_role: boolean
  superuser: boolean
  bypass: boolean
  role_settings: string | null
}

/**
 * Refuse an app login that would make the boundary a formality: one that can become the owner
 * of aizk's tables, a superuser, a BYPASSRLS role, or one that is not a member of the app role;
 * and one with role-level settings (ALTER ROLE ... SET), which any tenant's session can write
 * and every new connection of the login gets (docs/security.md#the-login-itself). Each scoped
 * transaction checks the settings again (src/scope/user.ts).
 */
export async function checkAppLogin(app: pg.Pool, appRole: string): Promise<void> {
  const { rows } = await app.query<LoginFacts>(APP_LOGIN_FACTS, [appRole])
  const f = rows[0]
  const problem = !f
    ? 'its login role was not found'
    : f.superuser || f.bypass
      ? `login ${f.login} is a superuser or bypasses row security`
      : f.reaches_owner
        ? `login ${f.login} can become ${f.owner}, the owner of aizk's tables, so scoped SQL could RESET ROLE past row security`
        : !f.in_app_role
          ? `login ${f.login} is not a member of the app role ${appRole}`
          : f.role_settings !== null
            ? `login ${f.login} has role-level settings (${f.role_settings}), which every new connection of it gets; remove them as an administrator: ALTER ROLE ${f.login} RESET ALL (and IN DATABASE <db> RESET ALL)`
            : undefined
  if (problem) throw new ConfigError([`AIZK_APP_DATABASE_URL: ${problem} (docs/security.md)`])
}
