/**
 * One entity's page as a scope set sees it (`aizk graph entity`): its aliases (the entities merged
 * into it), claims out and in with their sources, neighbours, communities and mentions. Read
 * inside User.system(scopes) as the app role, so row security decides, by containment.
 */
import type pg from 'pg'
import { NotFoundError } from '../../errors.js'
import { isUuid } from '../../scope/scope-set.js'
import { type IdentitySettings, User } from '../../scope/user.js'
import { normalizeName } from '../extract/normalize.js'
import * as sql from './sql/entity-sql.js'

export interface EntityClaim {
  id: string
  subject: string
  predicate: string
  object: string
  objectId: string | null
  weight: number
  faded: boolean
  supersededBy: string | null
  validFrom: string
  scopes: string[]
  sources: { chunkId: string; title: string | null; charStart: number | null; charEnd: number | null }[]
}

export interface EntityPage {
  scopes: string[]
  entity: { id: string; name: string; kind: string; scopes: string[]; description: string | null; mentions: number; firstSeen: string; lastSeen: string }
  /** Other live entities of the same name (another kind, or another set within the read set). */
  sameName: { id: string; name: string; kind: string; scopes: string[] }[]
  aliases: { id: string; name: string; kind: string }[]
  claimsOut: EntityClaim[]
  claimsIn: EntityClaim[]
  neighbours: { id: string; name: string; kind: string; weight: number; claims: number }[]
  communities: { id: string; level: number; title: string; summary: string; size: number; scopes: string[] }[]
  mentions: { chunkId: string; count: number; title: string | null; charStart: number | null; charEnd: number | null; scopes: string[] }[]
}

const NO_ID = '00000000-0000-0000-0000-000000000000'

export async function readEntity(pool: pg.Pool, scopes: Iterable<string>, nameOrId: string, settings: IdentitySettings, limit = 25): Promise<EntityPage> {
  const user = User.system(scopes, settings)
  const key = nameOrId.trim()
  const id = isUuid(key.toLowerCase()) ? key.toLowerCase() : NO_ID
  return user.transaction(pool, async (db) => {
    const found = (await db.query(sql.FIND_ENTITY, [id, normalizeName(key)])).rows
    if (!found.length) {
      const like = (await db.query<{ name: string }>(sql.SIMILAR_NAMES, [normalizeName(key)])).rows.map((r) => r.name)
      throw new NotFoundError(
        `no entity "${key}" in {${user.read.join(',')}}`,
        like.length
          ? `did you mean ${like.map((n) => `"${n}"`).join(', ')}?`
          : 'names are matched whole (case and leading articles aside); `aizk graph --scope ...` lists entities',
        { similar: like },
      )
    }
    const [e, ...others] = found
    const claims = async (direction: 'in' | 'out'): Promise<EntityClaim[]> =>
      (await db.query(sql.ENTITY_CLAIMS, [e.id, direction, limit])).rows.map((r) => ({
        id: r.id,
        subject: r.subject,
        predicate: r.predicate,
        object: r.object,
        objectId: r.object_id,
        weight: Number(r.weight),
        faded: r.faded,
        supersededBy: r.superseded_by,
        validFrom: (r.created as Date).toISOString(),
        scopes: r.scopes,
        sources: r.sources,
      }))
    return {
      scopes: [...user.read],
      entity: {
        id: e.id,
        name: e.name,
        kind: e.kind,
        scopes: e.scopes,
        description: e.description,
        mentions: e.mentions,
        firstSeen: (e.first_seen as Date).toISOString(),
        lastSeen: (e.last_seen as Date).toISOString(),
      },
      sameName: others.map((o) => ({ id: o.id, name: o.name, kind: o.kind, scopes: o.scopes })),
      aliases: (await db.query(sql.ALIASES, [e.id])).rows,
      claimsOut: await claims('out'),
      claimsIn: await claims('in'),
      neighbours: (await db.query(sql.NEIGHBOURS, [e.id, limit])).rows,
      communities: (await db.query(sql.ENTITY_COMMUNITIES, [e.id])).rows,
      mentions: (await db.query(sql.MENTIONS, [e.id, limit])).rows.map((r) => ({
        chunkId: r.chunk_id,
        count: r.count,
        title: r.title,
        charStart: r.char_start,
        charEnd: r.char_end,
        scopes: r.scopes,
      })),
    }
  })
}
