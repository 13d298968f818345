/**
 * Recall's answer from the fused order (docs/memory-graph.md, "Reading the graph"): the top items
 * read in full (sources, entities, chunks), each with the text a reader sees and why it ranks.
 */
import type { PoolClient } from 'pg'
import type { Fused } from './recall-fuse.js'
import type { WalkedClaim } from './recall-graph.js'
import type { RankedResult, RecalledChunk, RecalledClaim, RecalledCommunity, RecalledEntity, RecallItem } from './recall-types.js'
import * as sql from './sql/recall-sql.js'

const iso = (d: Date) => d.toISOString()

/** What the answer repeats of the question: its text, the reader's scopes and the moments asked about. */
export type ResultHead = Pick<RankedResult, 'query' | 'scopes' | 'asOf' | 'asOfSpan' | 'knownAt'>

interface Details {
  claims: Map<string, RecalledClaim>
  entities: Map<string, RecalledEntity>
  communities: Map<string, RecalledCommunity>
  chunks: Map<string, RecalledChunk>
}

export async function rankedResult(
  db: PoolClient,
  top: Fused[],
  claims: Map<string, WalkedClaim>,
  communityRows: RecalledCommunity[],
  head: ResultHead,
): Promise<RankedResult> {
  const ids = (kind: string) => top.filter((f) => f.key.startsWith(`${kind}:`)).map((f) => f.key.slice(kind.length + 1))
  const topClaims = ids('claim').map((id) => claims.get(id) as WalkedClaim)
  const entityIds = new Set([...ids('entity'), ...topClaims.flatMap((c) => [c.subject_id, c.object_id ?? ''].filter(Boolean))])
  // One client, one statement at a time.
  const sources = await readSources(
    db,
    topClaims.map((c) => c.id),
  )
  const entities = await readEntities(db, [...entityIds])
  const chunks = await readChunks(db, ids('chunk'))
  const details: Details = {
    claims: new Map(topClaims.map((c) => [c.id, recalledClaim(c, sources.get(c.id) ?? [])])),
    entities: new Map(entities.map((e) => [e.id, e])),
    communities: new Map(communityRows.map((m) => [m.id, m])),
    chunks: new Map(chunks.map((c) => [c.id, c])),
  }
  return {
    ...head,
    items: rankedItems(top, details),
    claims: [...details.claims.values()],
    entities,
    communities: ids('community').flatMap((id) => {
      const m = details.communities.get(id)
      return m ? [m] : []
    }),
    chunks: ids('chunk').flatMap((id) => {
      const c = details.chunks.get(id)
      return c ? [c] : []
    }),
  }
}

function rankedItems(top: Fused[], details: Details): RankedResult['items'] {
  const items: RankedResult['items'] = []
  for (const f of top) {
    const [kind, id] = f.key.split(':') as [RecallItem['kind'], string]
    const text = itemText(kind, id, details)
    if (text === null) continue
    items.push({ kind, id, score: Number(f.score.toFixed(6)), text: text.text, why: f.why, scopes: text.scopes })
  }
  return items
}

function recalledClaim(c: WalkedClaim, sources: RecalledClaim['sources']): RecalledClaim {
  return {
    id: c.id,
    subjectId: c.subject_id,
    subject: c.subject,
    predicate: c.predicate,
    objectId: c.object_id,
    object: c.object,
    weight: c.weight,
    recordedAt: iso(c.created),
    validFrom: iso(c.created),
    statedFrom: c.valid_from ?? null,
    statedUntil: c.valid_to ?? null,
    endedBy: c.ended_by ?? null,
    lastReinforced: iso(c.last_reinforced),
    hops: c.hops,
    scopes: c.scopes,
    sources,
  }
}

function itemText(kind: RecallItem['kind'], id: string, d: Details): { text: string; scopes: string[] } | null {
  if (kind === 'claim') {
    const c = d.claims.get(id)
    return c ? { text: `${c.subject} ${c.predicate} ${c.object}${claimTime(c)}`, scopes: c.scopes } : null
  }
  if (kind === 'entity') {
    const e = d.entities.get(id)
    return e ? { text: `${e.name} (${e.kind})${e.description ? `: ${e.description}` : ''}`, scopes: e.scopes } : null
  }
  if (kind === 'community') {
    const m = d.communities.get(id)
    return m ? { text: `${m.title}: ${m.summary}`, scopes: m.scopes } : null
  }
  const c = d.chunks.get(id)
  return c ? { text: c.text, scopes: c.scopes } : null
}

/** When a claim held, as its text dates it: " (from April 1996 until December 1997)", or nothing. */
export function claimTime(c: Pick<RecalledClaim, 'statedFrom' | 'statedUntil'>): string {
  const parts = [c.statedFrom && `from ${c.statedFrom}`, c.statedUntil && `until ${c.statedUntil}`].filter(Boolean)
  return parts.length ? ` (${parts.join(' ')})` : ''
}

async function readSources(db: PoolClient, claimIds: string[]): Promise<Map<string, RecalledClaim['sources']>> {
  const out = new Map<string, RecalledClaim['sources']>()
  if (!claimIds.length) return out
  const { rows } = await db.query(sql.CLAIM_SOURCES, [claimIds])
  for (const r of rows) {
    const list = out.get(r.claim_id) ?? []
    list.push({ chunkId: r.chunk_id, documentId: r.document_id, title: r.title, charStart: r.char_start, charEnd: r.char_end })
    out.set(r.claim_id, list)
  }
  return out
}

async function readEntities(db: PoolClient, ids: string[]): Promise<RecalledEntity[]> {
  if (!ids.length) return []
  const { rows } = await db.query(sql.ENTITIES, [ids])
  const order = new Map(ids.map((id, i) => [id, i]))
  return rows
    .map((r) => ({ id: r.id, name: r.name, kind: r.kind, description: r.description, aliases: r.aliases, mentions: r.mentions, scopes: r.scopes }))
    .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0))
}

async function readChunks(db: PoolClient, ids: string[]): Promise<RecalledChunk[]> {
  if (!ids.length) return []
  const { rows } = await db.query(sql.CHUNKS, [ids])
  return rows.map((r) => ({
    id: r.id,
    documentId: r.document_id,
    title: r.title,
    charStart: r.char_start,
    charEnd: r.char_end,
    text: r.text,
    scopes: r.scopes,
  }))
}
