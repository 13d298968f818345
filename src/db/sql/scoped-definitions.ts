/**
 * The definition files generated from src/db/scoped-tables.ts (docs/schema.md#generated-definitions):
 * every scoped table's policies, and for one whose columns name rows of other scoped tables, the
 * function that checks them and its insert and update triggers.
 */
import type { PolicyShape, ScopedTable } from '../scoped-tables.js'

/** `policies/chunk.rls_select` → the file's text. */
export type GeneratedFiles = Map<string, string>

export function scopedDefinitions(tables: readonly ScopedTable[]): GeneratedFiles {
  const files: GeneratedFiles = new Map()
  for (const t of tables) {
    for (const shape of t.policies) files.set(`policies/${t.table}.rls_${shape}`, withHeader(policy(t.table, shape)))
    if (t.references.length === 0) continue
    files.set(`functions/aizk_${t.table}_refs_visible`, withHeader(refsVisible(t)))
    files.set(`triggers/aizk_${t.table}_refs_insert`, withHeader(insertTrigger(t)))
    files.set(`triggers/aizk_${t.table}_refs_update`, withHeader(updateTrigger(t)))
  }
  return files
}

export const GENERATED_HEADER = '-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.\n'

/** The header goes after the file's directives, which must lead it (docs/schema.md#directives). */
function withHeader(text: string): string {
  const lines = text.split('\n')
  const directives = lines.findIndex((l) => !l.startsWith('-- aizk:'))
  return [...lines.slice(0, directives), GENERATED_HEADER.trimEnd(), ...lines.slice(directives)].join('\n')
}

const READ = 'scopes <@ (SELECT aizk_read_scopes())'
const WRITE = 'scopes = (SELECT aizk_write_scopes())'

function policy(table: string, shape: PolicyShape): string {
  const head = `DROP POLICY IF EXISTS rls_${shape} ON ${table};\nCREATE POLICY rls_${shape} ON ${table} FOR ${shape.toUpperCase()} TO {{app_role}}`
  switch (shape) {
    case 'select':
      return `-- aizk:requires functions/aizk_read_scopes\n${head} USING (${READ});\n`
    case 'insert':
      return `-- aizk:requires functions/aizk_write_scopes\n${head} WITH CHECK (${WRITE});\n`
    case 'delete':
      return `-- aizk:requires functions/aizk_write_scopes\n${head} USING (${WRITE});\n`
    case 'update':
      return `-- aizk:requires functions/aizk_read_scopes\n-- aizk:requires functions/aizk_write_scopes\n${head} USING (${READ})\n    WITH CHECK (${WRITE});\n`
  }
}

function refsVisible(t: ScopedTable): string {
  const checks = t.references.map(
    ({ column: c, table: target }) =>
      `    IF NEW.${c} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM public.${target} x WHERE x.id = NEW.${c} AND x.scopes <@ NEW.scopes AND x.scopes <@ readable) THEN\n` +
      `        RAISE EXCEPTION '${t.table}.${c} names ${target} % outside the write set', NEW.${c} USING ERRCODE = '42501';\n` +
      '    END IF;\n',
  )
  return `-- The ids a scoped ${t.table} row names must be rows the caller can read, within the row's own
-- scopes. It runs BEFORE the row is written, so it answers before the foreign key's own check
-- (which reads past row security) could say whether an id exists at all: another set's id and an
-- id nobody has get the same error (docs/security.md).
CREATE OR REPLACE FUNCTION aizk_${t.table}_refs_visible()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    readable uuid[] := aizk_read_scopes();
BEGIN
${checks.join('')}    RETURN NEW;
END $function$;
`
}

function trigger(t: ScopedTable, event: 'insert' | 'update', when: string): string {
  const name = `aizk_${t.table}_refs_${event}`
  return `-- aizk:requires functions/aizk_${t.table}_refs_visible
DROP TRIGGER IF EXISTS ${name} ON ${t.table};
CREATE TRIGGER ${name} ${when} EXECUTE FUNCTION aizk_${t.table}_refs_visible();
`
}

const rowSecurityActive = (table: string) => `row_security_active(('${table}'::regclass)::oid)`

function insertTrigger(t: ScopedTable): string {
  return trigger(t, 'insert', `BEFORE INSERT ON ${t.table} FOR EACH ROW WHEN (${rowSecurityActive(t.table)})`)
}

/** Only when a checked column changes: PostgreSQL prints the WHEN clause in this form (pg_get_triggerdef). */
function updateTrigger(t: ScopedTable): string {
  const columns = t.references.map((r) => r.column)
  const changes = columns.map((c) => `(new.${c} IS DISTINCT FROM old.${c})`)
  const changed = changes.length === 1 ? changes[0] : `(${changes.join(' OR ')})`
  const when = `WHEN ((${rowSecurityActive(t.table)} AND ${changed}))`
  return trigger(t, 'update', `BEFORE UPDATE OF ${columns.join(', ')} ON ${t.table} FOR EACH ROW ${when}`)
}

/** Whether a definition's name is one this generator writes (so a file of that name not generated is stale). */
export function isGeneratedName(name: string): boolean {
  return (
    /^policies\/\w+\.rls_(select|insert|update|delete)$/.test(name) || /^(functions\/aizk_\w+_refs_visible|triggers\/aizk_\w+_refs_(insert|update))$/.test(name)
  )
}
