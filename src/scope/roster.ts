/**
 * The roster: every distinct scope set that any document, session item or artifact stores.
 * The one read past row security, so it reads almost nothing: the arrays, never a row.
 */
import type pg from 'pg'
import { ROSTER_SQL } from './sql/roster.js'
import { type IdentitySettings, User } from './user.js'

/** Distinct sorted scope sets, sorted (as PostgreSQL orders uuid[]). */
export async function scopeRoster(pool: pg.Pool, settings: IdentitySettings): Promise<string[][]> {
  return User.system([], settings).owner(pool, async (client) => {
    const { rows } = await client.query<{ scopes: string[] }>({ name: 'aizk_scope_roster', text: ROSTER_SQL })
    return rows.map((r) => r.scopes).filter((s) => s.length > 0)
  })
}
