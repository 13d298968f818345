/**
 * The tables row security scopes to a caller's sets (docs/security.md), declared once: which
 * policies each carries and which of its columns name a row of another scoped table. The policy
 * files, the `*_refs_visible` functions and their `*_refs_insert` / `*_refs_update` triggers under
 * src/db/definitions/ are generated from this list (`npm run definitions`, docs/schema.md#generated-definitions).
 */

/** select: reads rows within the read set; insert and delete: rows of exactly the write set; update: both. */
export type PolicyShape = 'select' | 'insert' | 'update' | 'delete'

export interface ScopedReference {
  column: string
  /** The scoped table the column names a row of (by its id). */
  table: string
}

export interface ScopedTable {
  table: string
  policies: readonly PolicyShape[]
  /**
   * Columns naming a row of another scoped table, in the order they are checked: each is checked
   * BEFORE the row is written, so a row of another set and a row that does not exist get the same
   * error (docs/security.md).
   */
  references: readonly ScopedReference[]
}

const ALL: readonly PolicyShape[] = ['select', 'insert', 'update', 'delete']
const ref = (column: string, table: string): ScopedReference => ({ column, table })

export const SCOPED_TABLES: readonly ScopedTable[] = [
  // The bytes its own sets stored; aizk writes them as the owner (aizk_store_content).
  { table: 'aizk_content', policies: ['select'], references: [] },
  { table: 'aizk_usage_daily', policies: ['select', 'insert', 'update'], references: [] },
  { table: 'aizk_usage_event', policies: ['select', 'insert', 'update'], references: [] },
  { table: 'aizk_watermark', policies: ALL, references: [] },
  { table: 'artifact', policies: ALL, references: [] },
  { table: 'chunk', policies: ALL, references: [ref('artifact_id', 'artifact'), ref('document_id', 'document')] },
  {
    table: 'claim',
    policies: ALL,
    references: [
      ref('object_id', 'entity'),
      ref('source_chunk_id', 'chunk'),
      ref('subject_id', 'entity'),
      ref('superseded_by', 'claim'),
      ref('ended_by', 'claim'),
    ],
  },
  { table: 'claim_source', policies: ALL, references: [ref('chunk_id', 'chunk'), ref('claim_id', 'claim')] },
  { table: 'community', policies: ALL, references: [ref('parent_id', 'community')] },
  { table: 'community_member', policies: ALL, references: [ref('community_id', 'community'), ref('entity_id', 'entity')] },
  { table: 'document', policies: ALL, references: [] },
  { table: 'entity', policies: ALL, references: [ref('merged_into', 'entity')] },
  { table: 'entity_merge', policies: ALL, references: [ref('merged_id', 'entity'), ref('into_id', 'entity')] },
  { table: 'entity_trend', policies: ALL, references: [ref('entity_id', 'entity')] },
  { table: 'insight', policies: ALL, references: [ref('entity_id', 'entity')] },
  { table: 'insight_evidence', policies: ALL, references: [ref('claim_id', 'claim'), ref('insight_id', 'insight')] },
  { table: 'mention', policies: ALL, references: [ref('chunk_id', 'chunk'), ref('entity_id', 'entity')] },
  { table: 'profile', policies: ALL, references: [ref('entity_id', 'entity')] },
  { table: 'raptor_node', policies: ALL, references: [] },
  { table: 'session_item', policies: ALL, references: [ref('document_id', 'document')] },
]
