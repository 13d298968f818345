/**
 * How much memory each scope set of the roster holds. The roster (the one owner read) names the
 * sets; each set is then counted inside User.system(set) through the app role, so the counting
 * itself reads nothing past row security: it sees exactly what that set's own passes see. Every
 * count is of the set's own rows (scopes equal to the set), the partition its passes maintain.
 */
import type pg from 'pg'
import { scopeRoster } from './roster.js'
import { COUNT_SQL } from './sql/roster-counts.js'
import { type IdentitySettings, User } from './user.js'

export interface RosterEntry {
  scopes: string[]
  documents: number
  sessionItems: number
  artifacts: number
  chunksPendingProjection: number
  entities: number
  claims: number
  communities: number
  insights: number
}

type CountRow = Record<'documents' | 'session_items' | 'artifacts' | 'chunks_pending' | 'entities' | 'claims' | 'communities' | 'insights', string>

export async function rosterCounts(pool: pg.Pool, settings: IdentitySettings, opts: { contains?: string[] } = {}): Promise<RosterEntry[]> {
  const sets = (await scopeRoster(pool, settings)).filter((set) => (opts.contains ?? []).every((id) => set.includes(id)))
  const out: RosterEntry[] = []
  for (const scopes of sets) {
    const row = await User.system(scopes, settings).transaction(pool, async (c) => {
      const { rows } = await c.query<CountRow>(COUNT_SQL, [scopes])
      return rows[0]
    })
    out.push({
      scopes,
      documents: Number(row.documents),
      sessionItems: Number(row.session_items),
      artifacts: Number(row.artifacts),
      chunksPendingProjection: Number(row.chunks_pending),
      entities: Number(row.entities),
      claims: Number(row.claims),
      communities: Number(row.communities),
      insights: Number(row.insights),
    })
  }
  return out
}
