/**
 * Repeatable definitions (src/db/definitions/{functions,triggers,policies}/NAME.sql), one file per
 * function, trigger or policy, each written so that running it again replaces the object
 * (CREATE OR REPLACE, or DROP ... IF EXISTS then CREATE). A definition is (re)applied when its
 * checksum (or, recorded before 0.2.0, its raw checksum) differs from the one recorded in aizk_schema_definition, after the files it
 * `-- aizk:requires` (docs/schema.md).
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { DatabaseError } from '../errors.js'
import { checksum, oncePerProcess, rawChecksum, readDirectives, renderAppRole } from './schema-files.js'

export const DEFINITIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'definitions')
/** Kinds in the order ties are broken: a trigger or policy usually calls a function. */
export const DEFINITION_KINDS = ['functions', 'triggers', 'policies'] as const

export interface Definition {
  /** `functions/aizk_pick`: the file's path under definitions/, without `.sql`. */
  name: string
  sql: string
  /** Over what runs: comments and whitespace do not change it (docs/schema.md#checksums). */
  checksum: string
  /** Over the file's bytes, as recorded before 0.2.0: a database holding it is not re-applied for it. */
  rawChecksum: string
  requires: string[]
}

const definitionsOnce = oncePerProcess(readDefinitions)

/** Every definition, each after the ones it requires (then by kind and name); read once per process. */
export function loadDefinitions(appRole: string, dir = DEFINITIONS_DIR): Definition[] {
  return definitionsOnce(appRole, dir)
}

function readDefinitions(appRole: string, dir: string): Definition[] {
  const defs: Definition[] = []
  for (const kind of DEFINITION_KINDS) {
    for (const file of readdirSync(path.join(dir, kind))
      .filter((f) => f.endsWith('.sql'))
      .sort()) {
      const name = `${kind}/${file.replace(/\.sql$/, '')}`
      const raw = readFileSync(path.join(dir, kind, file), 'utf8')
      const sql = renderAppRole(raw, appRole)
      defs.push({ name, sql, checksum: checksum(sql), rawChecksum: rawChecksum(sql), requires: readDirectives(`definitions/${name}.sql`, raw).requires })
    }
  }
  return inDependencyOrder(defs)
}

export function inDependencyOrder(defs: Definition[]): Definition[] {
  const byName = new Map(defs.map((d) => [d.name, d]))
  const done = new Set<string>()
  const visiting = new Set<string>()
  const out: Definition[] = []
  const visit = (d: Definition) => {
    if (done.has(d.name)) return
    if (visiting.has(d.name))
      throw new DatabaseError(`definitions require each other in a cycle through ${d.name}`, 'break the cycle: one of them must not require the other')
    visiting.add(d.name)
    for (const r of d.requires) {
      const dep = byName.get(r)
      if (!dep) throw missingDefinition(d.name, r)
      visit(dep)
    }
    visiting.delete(d.name)
    done.add(d.name)
    out.push(d)
  }
  for (const d of defs) visit(d)
  return out
}

/** `names` and every definition they require, in dependency order. */
export function withRequirements(all: Definition[], names: string[]): Definition[] {
  const byName = new Map(all.map((d) => [d.name, d]))
  const wanted = new Set<string>()
  const add = (name: string, by: string) => {
    const d = byName.get(name)
    if (!d) throw missingDefinition(by, name)
    if (wanted.has(name)) return
    wanted.add(name)
    for (const r of d.requires) add(r, name)
  }
  for (const n of names) add(n, 'a migration')
  return all.filter((d) => wanted.has(d.name))
}

function missingDefinition(by: string, name: string): DatabaseError {
  return new DatabaseError(
    `${by} requires ${name}, which is not a file under src/db/definitions/`,
    'name it as KIND/NAME, e.g. functions/aizk_pick (docs/schema.md#directives)',
  )
}
