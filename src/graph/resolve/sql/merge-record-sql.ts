/**
 * The record of each merge (table entity_merge) and its undoing. mergeEntities runs the first
 * three statements around its fold, on its temp tables (pg_temp.aizk_dedup_map: f folded into
 * t): what the fold will change is captured before it changes it. unmergeEntity puts it back.
 */
import type { Queryable } from '../../../db/queryable.js'
import { UsageError } from '../../../errors.js'

/** Before the fold: entities repointed through f, t's name, f's mentions and every claim naming f. */
export const RECORD_BEFORE_MERGE = `CREATE TEMP TABLE pg_temp.aizk_dedup_undo ON COMMIT DROP AS
  SELECT m.f, m.t, jsonb_build_object(
           'repointed', (SELECT coalesce(jsonb_agg(e.id), '[]') FROM entity e WHERE e.merged_into = m.f AND e.scopes = $1::uuid[]),
           'intoName', (SELECT e.name FROM entity e WHERE e.id = m.t),
           'mentions', (SELECT coalesce(jsonb_agg(to_jsonb(x)), '[]') FROM mention x WHERE x.entity_id = m.f),
           'claims', (SELECT coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'subject_id', c.subject_id, 'object_id', c.object_id, 'object_key', c.object_key)), '[]')
                        FROM claim c WHERE c.scopes = $1::uuid[] AND (c.subject_id = m.f OR c.object_id = m.f))) AS undo
    FROM pg_temp.aizk_dedup_map m`

/**
 * Claims the fold deletes (they became one with a survivor): whole rows, evidence, and what they
 * add to the survivor, each recorded once: with its subject's merge, else its object's.
 */
export const RECORD_FOLDED_CLAIMS = `UPDATE pg_temp.aizk_dedup_undo u SET undo = u.undo || jsonb_build_object('folded', coalesce((
    SELECT jsonb_agg(jsonb_build_object(
             'claim', to_jsonb(c),
             'survivor', f.survivor,
             'sources', (SELECT coalesce(jsonb_agg(to_jsonb(cs)), '[]') FROM claim_source cs WHERE cs.claim_id = c.id),
             'addedSources', (SELECT coalesce(jsonb_agg(cs.chunk_id), '[]') FROM claim_source cs
                               WHERE cs.claim_id = c.id AND NOT EXISTS (SELECT 1 FROM claim_source s WHERE s.claim_id = f.survivor AND s.chunk_id = cs.chunk_id)),
             'supersededBy', (SELECT coalesce(jsonb_agg(x.id), '[]') FROM claim x WHERE x.superseded_by = c.id)))
      FROM pg_temp.aizk_dedup_fold f JOIN claim c ON c.id = f.loser
     WHERE c.subject_id = u.f OR (c.object_id = u.f AND NOT EXISTS (SELECT 1 FROM pg_temp.aizk_dedup_map s WHERE s.f = c.subject_id))), '[]'))`

export const WRITE_MERGE_RECORDS = `INSERT INTO entity_merge (scopes, merged_id, into_id, rule, score, merged_name, into_name, kept_name, undo)
  SELECT $1::uuid[], u.f, u.t, m.rule, m.score, e.name, u.undo->>'intoName', m.kept, u.undo
    FROM pg_temp.aizk_dedup_undo u JOIN pg_temp.aizk_dedup_map m ON m.f = u.f JOIN entity e ON e.id = u.f`

export interface MergeRecord {
  id: string
  mergedId: string
  intoId: string
  rule: string
  score: number
  mergedName: string
  intoName: string
  keptName: string
  mergedAt: Date
  undoneAt: Date | null
}

/** The set's merges, newest first; `entity` narrows them to merges of or into entities of that name. */
export async function listMerges(db: Queryable, scopes: readonly string[], opts: { limit: number; entity?: string; undone?: boolean }): Promise<MergeRecord[]> {
  const { rows } = await db.query<{
    id: string
    merged_id: string
    into_id: string
    rule: string
    score: number
    merged_name: string
    into_name: string
    kept_name: string
    merged_at: Date
    undone_at: Date | null
  }>(
    `SELECT id::text, merged_id::text, into_id::text, rule, score, merged_name, into_name, kept_name, merged_at, undone_at
       FROM entity_merge
      WHERE scopes = $1::uuid[] AND ($3::text IS NULL OR lower($3) IN (lower(merged_name), lower(into_name), lower(kept_name)))
        AND ($4::boolean OR undone_at IS NULL)
      ORDER BY merged_at DESC, id LIMIT $2`,
    [scopes, opts.limit, opts.entity ?? null, opts.undone ?? false],
  )
  return rows.map((r) => ({
    id: r.id,
    mergedId: r.merged_id,
    intoId: r.into_id,
    rule: r.rule,
    score: Number(r.score),
    mergedName: r.merged_name,
    intoName: r.into_name,
    keptName: r.kept_name,
    mergedAt: r.merged_at,
    undoneAt: r.undone_at,
  }))
}

/** Pairs (merged, into) whose merge was undone: the dedup pass never makes them again. */
export async function undoneMergePairs(db: Queryable, scopes: readonly string[]): Promise<[string, string][]> {
  const { rows } = await db.query<{ m: string; i: string }>(
    'SELECT merged_id::text AS m, into_id::text AS i FROM entity_merge WHERE scopes = $1::uuid[] AND undone_at IS NOT NULL',
    [scopes],
  )
  return rows.map((r) => [r.m, r.i])
}

/** The undo's statements in order, with named parameters (bindNamed). */
const UNDO_STEPS = [
  // The entity lives again; entities that had been merged into it point at it again.
  `UPDATE entity SET merged_into = NULL WHERE id = :merged AND scopes = :scopes`,
  `UPDATE entity SET merged_into = :merged WHERE id IN (SELECT jsonb_array_elements_text(:undo->'repointed')::uuid) AND merged_into = :into AND scopes = :scopes`,
  `UPDATE entity SET name = :undo->>'intoName' WHERE id = :into AND name = :kept AND scopes = :scopes`,
  // Folded claims come back with their evidence; the survivor gives back their weight and evidence.
  `INSERT INTO claim SELECT (jsonb_populate_record(NULL::claim, f->'claim')).* FROM jsonb_array_elements(:undo->'folded') f ON CONFLICT DO NOTHING`,
  `INSERT INTO claim_source SELECT (jsonb_populate_record(NULL::claim_source, s)).*
     FROM jsonb_array_elements(:undo->'folded') f, jsonb_array_elements(f->'sources') s ON CONFLICT DO NOTHING`,
  `UPDATE claim c SET weight = greatest(c.weight - (f->'claim'->>'weight')::float8, 0)
     FROM jsonb_array_elements(:undo->'folded') f WHERE c.id = (f->>'survivor')::uuid AND c.scopes = :scopes`,
  `DELETE FROM claim_source cs USING jsonb_array_elements(:undo->'folded') f, jsonb_array_elements_text(f->'addedSources') a
    WHERE cs.claim_id = (f->>'survivor')::uuid AND cs.chunk_id = a::uuid AND cs.scopes = :scopes`,
  `UPDATE claim c SET superseded_by = (f->'claim'->>'id')::uuid
     FROM jsonb_array_elements(:undo->'folded') f, jsonb_array_elements_text(f->'supersededBy') x
    WHERE c.id = x::uuid AND c.superseded_by = (f->>'survivor')::uuid AND c.scopes = :scopes`,
  // Moved claims name it again.
  `UPDATE claim c SET subject_id = x.subject_id, object_id = x.object_id, object_key = x.object_key
     FROM jsonb_to_recordset(:undo->'claims') AS x(id uuid, subject_id uuid, object_id uuid, object_key text)
    WHERE c.id = x.id AND c.scopes = :scopes`,
  // Its mentions come back and leave the survivor's counts.
  `INSERT INTO mention SELECT (jsonb_populate_record(NULL::mention, x)).* FROM jsonb_array_elements(:undo->'mentions') x ON CONFLICT DO NOTHING`,
  `DELETE FROM mention m USING jsonb_populate_recordset(NULL::mention, :undo->'mentions') x
    WHERE m.entity_id = :into AND m.chunk_id = x.chunk_id AND m.count <= x.count AND m.scopes = :scopes`,
  `UPDATE mention m SET count = m.count - x.count FROM jsonb_populate_recordset(NULL::mention, :undo->'mentions') x
    WHERE m.entity_id = :into AND m.chunk_id = x.chunk_id AND m.scopes = :scopes`,
  `INSERT INTO profile (entity_id, scopes, dirty) VALUES (:merged, :scopes, true), (:into, :scopes, true) ON CONFLICT (entity_id) DO UPDATE SET dirty = true`,
]

type UndoParams = { scopes: readonly string[]; merged: string; into: string; undo: string; kept: string }
const TYPES: Record<keyof UndoParams, string> = { scopes: 'uuid[]', merged: 'uuid', into: 'uuid', undo: 'jsonb', kept: 'text' }

/** `:name` placeholders as $n with their type, and the values in that order: each step binds only what it names. */
function bindNamed(sql: string, params: UndoParams): { text: string; values: unknown[] } {
  const order: (keyof UndoParams)[] = []
  const text = sql.replace(/:(scopes|merged|into|undo|kept)\b/g, (_, name: keyof UndoParams) => {
    if (!order.includes(name)) order.push(name)
    return `$${order.indexOf(name) + 1}::${TYPES[name]}`
  })
  return { text, values: order.map((n) => params[n]) }
}

/**
 * Undo one merge of the set from its record. Refused when it is already undone, or when the
 * merged entity no longer points at the one it was merged into (a later merge moved it: undo
 * that one first).
 */
export async function unmergeEntity(db: Queryable, scopes: readonly string[], mergeId: string): Promise<MergeRecord> {
  const { rows } = await db.query<{ merged_id: string; into_id: string; kept_name: string; undo: unknown; undone_at: Date | null; now_into: string | null }>(
    `SELECT r.merged_id::text, r.into_id::text, r.kept_name, r.undo, r.undone_at, e.merged_into::text AS now_into
       FROM entity_merge r JOIN entity e ON e.id = r.merged_id
      WHERE r.id = $2::uuid AND r.scopes = $1::uuid[] FOR UPDATE OF r`,
    [scopes, mergeId],
  )
  const r = rows[0]
  if (!r) throw new UsageError(`no merge ${mergeId} in this scope set`, "list the set's merges with `aizk graph merges --scope ...`")
  if (r.undone_at) throw new UsageError(`merge ${mergeId} was already undone at ${r.undone_at.toISOString()}`)
  if (r.now_into !== r.into_id) {
    const later = await db.query<{ id: string }>(
      'SELECT id::text FROM entity_merge WHERE scopes = $1::uuid[] AND merged_id = $2::uuid AND undone_at IS NULL AND id <> $3::uuid ORDER BY merged_at DESC LIMIT 1',
      [scopes, r.into_id, mergeId],
    )
    throw new UsageError(
      `merge ${mergeId} cannot be undone while a later merge holds its survivor`,
      later.rows[0] ? `undo merge ${later.rows[0].id} first` : 'the merged entity was changed since; nothing was undone',
    )
  }
  const params: UndoParams = { scopes, merged: r.merged_id, into: r.into_id, undo: JSON.stringify(r.undo), kept: r.kept_name }
  for (const step of UNDO_STEPS) await db.query(bindNamed(step, params))
  await db.query('UPDATE entity_merge SET undone_at = now() WHERE id = $1::uuid', [mergeId])
  const [record] = (await listMerges(db, scopes, { limit: 1000, undone: true })).filter((m) => m.id === mergeId)
  return record
}
