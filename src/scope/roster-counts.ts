/**
 * How much memory each scope set of the roster holds. The roster (the one owner read) names the
 * sets; each set is then counted inside User.system(set) through the app role, so the counting
 * itself reads nothing past row security: it sees exactly what that set's own passes see.
 */
import type pg from 'pg'
import { scopeRoster } from './roster.js'
import { User, type IdentitySettings } from './user.js'

export interface RosterEntry {
  scopes: string[]
  documents: number
  sessionItems: number
  artifacts: number
}

const COUNT_SQL = `
  SELECT (SELECT count(*) FROM document WHERE scopes = $1::uuid[])::text AS documents,
         (SELECT count(*) FROM session_item WHERE scopes = $1::uuid[])::text AS session_items,
         (SELECT count(*) FROM artifact WHERE scopes = $1::uuid[])::text AS artifacts`

export async function rosterCounts(pool: pg.Pool, settings: IdentitySettings, opts: { contains?: string[] } = {}): Promise<RosterEntry[]> {
  const sets = (await scopeRoster(pool, settings)).filter((set) => (opts.contains ?? []).every((id) => set.includes(id)))
  const out: RosterEntry[] = []
  for (const scopes of sets) {
    const row = await User.system(scopes, settings).transaction(pool, async (c) => {
      const { rows } = await c.query<{ documents: string; session_items: string; artifacts: string }>(COUNT_SQL, [scopes])
      return rows[0]
    })
    out.push({ scopes, documents: Number(row.documents), sessionItems: Number(row.session_items), artifacts: Number(row.artifacts) })
  }
  return out
}
